"""The API docs at ``/docs`` (Swagger UI), served from files that ship with a package."""

from __future__ import annotations

import re

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from meeple.server.security import content_security_policy, script_hash

DOCS_ASSETS = "/docs-assets"
"""Where Swagger UI's files are served from (the copy the fastapi-offline package ships)."""


def install_docs(app: FastAPI) -> None:
    """The API docs at ``/docs`` (Swagger UI), FastAPI's self-hosting recipe with files that
    ship with a package: nothing is fetched from a CDN. Swagger UI's page has one inline
    script; its answer's Content-Security-Policy allows that script by its hash. No ``/redoc``:
    ReDoc loads a logo from its CDN and runs its search in a worker made from a blob."""
    app.mount(
        DOCS_ASSETS, StaticFiles(packages=[("fastapi_offline", "static")]), name="docs-assets"
    )

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        page = get_swagger_ui_html(
            openapi_url=f"{root}/openapi.json",
            title="meeple API",
            swagger_js_url=f"{root}{DOCS_ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{DOCS_ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{root}/static/favicon.svg",
            swagger_ui_parameters={"validatorUrl": None},  # no badge from validator.swagger.io
        )
        scripts = re.findall(r"<script>(.*?)</script>", bytes(page.body).decode(), re.DOTALL)
        hashes = tuple(script_hash(s) for s in scripts)
        host = request.headers.get("host")
        page.headers["content-security-policy"] = content_security_policy(host, hashes)
        return page
