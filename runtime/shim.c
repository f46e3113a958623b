/*
 * shim.c -- the shared library libcudart.so.13.  Its contents are the
 * runtime/ archive, linked whole; see libcudart.map for what it exports.
 */
