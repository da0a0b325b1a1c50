"""The framework every concept builds on: the contract, the one entry point, number formatting, SVG and
table building blocks. Pure Python, shipped to the browser."""
