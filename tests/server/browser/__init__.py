"""Tests of the web table in a real browser (Chromium driven by Playwright)."""
