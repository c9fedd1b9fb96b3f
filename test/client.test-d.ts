import { describe, expectTypeOf, it } from 'vitest';
import {
  createClient,
  type ParleyError,
  type ConnectionStatus,
  type ConnectionStatusChange,
  type ParleyClient,
  type UserEvent,
} from '../src/index.js';
import type { ConnectInput } from '../src/core/connect-input.js';

describe('public API types', () => {
  const client = createClient({ host: 'localhost:3000', appkey: 'k', modules: ['im'] });

  it('createClient returns a ParleyClient', () => {
    expectTypeOf(client).toEqualTypeOf<ParleyClient>();
  });

  it('connect takes the user and resolves to void', () => {
    expectTypeOf(client.connect).parameter(0).toExtend<ConnectInput | undefined>();
    expectTypeOf(client.connect({ id: 'u', data: { a: 1 }, otp: 't' })).toEqualTypeOf<Promise<void>>();
    // @ts-expect-error id is a string or a number
    void client.connect({ id: true });
    // @ts-expect-error data is an object
    void client.connect({ id: 'u', data: 'x' });
  });

  it('statuses are the eight of the spec', () => {
    expectTypeOf(client.getConnectionStatus()).toEqualTypeOf<ConnectionStatus>();
    expectTypeOf<ConnectionStatus>().toEqualTypeOf<
      | 'disconnected'
      | 'connecting'
      | 'connected'
      | 'reconnecting'
      | 'reconnected'
      | 'expired_reconnected'
      | 'disconnecting'
      | 'connect_failed'
    >();
  });

  it('on() is typed per event and returns its unsubscribe', () => {
    const off = client.on('connectionStatus', (change) => {
      expectTypeOf(change).toEqualTypeOf<ConnectionStatusChange>();
    });
    expectTypeOf(off).toEqualTypeOf<() => void>();
    client.on('connecting', ({ attempts }) => {
      expectTypeOf(attempts).toBeNumber();
    });
    client.on('userEvent', (event) => {
      expectTypeOf(event).toEqualTypeOf<UserEvent>();
      expectTypeOf(event.name).toBeString();
    });
  });

  it('options are checked', () => {
    // @ts-expect-error appkey is required
    createClient({ host: 'h', modules: ['im'] });
    // @ts-expect-error connectTimeout is a number
    createClient({ host: 'h', appkey: 'k', modules: ['im'], connectTimeout: '1' });
  });

  it('ParleyError has code and content', () => {
    expectTypeOf<ParleyError['code']>().toBeNumber();
    expectTypeOf<ParleyError['content']>().toBeString();
  });
});
