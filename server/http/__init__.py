"""The HTTP API: routes calling the service, their schemas and OpenAPI, and the HTML pages."""
