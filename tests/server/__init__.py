"""Tests of server/: the service and its adapters, in folders mirroring it."""
