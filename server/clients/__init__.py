"""What the server knows of a client before it asks the service anything: its address behind
the trusted proxies, and the limits counted against that address."""
