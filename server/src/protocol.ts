/** The wire contract shared with the SDK; the server imports it only through this file. */
export * from '../../src/protocol/index.js';
