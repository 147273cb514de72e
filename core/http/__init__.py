"""What the web processes share: the API's error shape and schema hooks, its JSON parser,
the middleware, the public reads' cache, and the garbage-collector freeze of a web
process."""
