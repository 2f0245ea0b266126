"""The live court: Socket.IO, presence, pushes, the Redis relay and the deadline watcher."""
