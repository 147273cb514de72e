"""End-to-end tests in Chromium; a package so that the browser's fixture ends with them."""
