"""Tests of the server: the catalogue of client commands."""
