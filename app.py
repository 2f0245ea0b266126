"""The entry point. `python app.py` serves on HOST:PORT through gunicorn with one gevent worker
(server/tools/serve.py; `python app.py --dev` or SERVER=dev: Werkzeug's development server).
With REDIS_URL set, several such processes share one PostgreSQL database
(docs/deployment.md). `flask --app app court ...` finds the app here; it is composed in
server/composition.py.
"""

from __future__ import annotations

import sys

if __name__ == "__main__":
    # Before the imports below: gunicorn's worker monkey-patches the standard library and
    # only then imports the composition root (server/tools/serve.py says why).
    from server.tools.serve import main

    sys.exit(main(sys.argv[1:]))

from server.composition import api_routes, create_app, start_deadlines, start_notices

__all__ = ["api_routes", "create_app", "start_deadlines", "start_notices"]
