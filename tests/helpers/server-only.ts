// vitest stands in for the server: "server-only" guards the browser bundle, which tests never build.
