"""Exact analysis of the Monopoly family: landing shares, rent per roll, board pictures."""
