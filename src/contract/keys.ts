// The format of the token endpoint's own keys: the overlay key every widget URL carries (`?key=`)
// and the dock's control key (docs/dock.md: like the overlay key). Its own module with no schema,
// so that the server's configuration, the store and a page's bundle take the pattern alone.

/** 16 to 128 of A-Z a-z 0-9 _ -. */
export const KEY_FORMAT = /^[A-Za-z0-9_-]{16,128}$/;
