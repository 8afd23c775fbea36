// Entry for the extension host: loaded on demand from dist/sandbox-host.js.
export {};
