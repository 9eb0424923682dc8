"""Tests of the web server."""

import warnings

# Starlette's test client still runs on httpx; its notice about httpx2 says nothing about meeple.
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
