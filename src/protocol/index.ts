/**
 * The wire contract shared by the Parley SDK and server: event names, payload schemas, result codes and
 * messages, limits, and the mapping between wire fields and domain types.
 *
 * @packageDocumentation
 */
export * from './codes.js';
export * from './connection.js';
export * from './cs.js';
export * from './envelope.js';
export * from './events.js';
export * from './im.js';
export * from './limits.js';
export * from './pubsub.js';
export * from './upload.js';
export * from './user-events.js';
export * from './validate.js';
