// Package app is the composition root: it opens the store, builds every service
// and wires them together. It is the only package that knows all the parts; the
// faces (cli, web) call it and nothing below it knows it exists.
package app
