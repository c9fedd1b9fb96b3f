import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { issueOtp } from '../../server/src/auth/otp.js';
import { SECURE_APP, startServer, tempDir } from '../../server/test/helpers.js';
import { GoEasy, ReferenceFailure, call, connectReference, eventually } from './support.js';

describe('reference client: connection', () => {
  it('INTEROP-1: connects with an otp and reaches connected', async () => {
    const { port } = await startServer();
    const otp = issueOtp({ secretKey: SECURE_APP.secretKey, userId: 'alice', now: Date.now() }).otp;
    await connectReference(port, SECURE_APP.appkey, { id: 'alice', otp });
    expect(GoEasy.getConnectionStatus(), 'getConnectionStatus() after connect onSuccess').toBe('connected');
  });

  it('INTEROP-2: a refused otp gives onFailed with 401', async () => {
    const { port } = await startServer();
    GoEasy.getInstance({ host: `localhost:${port}`, appkey: SECURE_APP.appkey, modules: ['im'], forceTLS: false });
    const error = await call((o) => GoEasy.connect(o), { id: 'alice', data: {}, otp: 'forged' }).catch(
      (e: unknown) => e,
    );
    expect(error, 'connect: onFailed called').toBeInstanceOf(ReferenceFailure);
    expect((error as ReferenceFailure).failure, 'connect onFailed: {code, content}').toEqual({
      code: 401,
      content: 'Invalid otp',
    });
    expect(GoEasy.getConnectionStatus(), 'getConnectionStatus() after connect onFailed').toBe('connect_failed');
  });

  it('INTEROP-3: after a server restart that keeps sessions the status is reconnected', async () => {
    const sqlite = join(tempDir(), 'parley.db');
    const first = await startServer({ sqlite });
    const otp = issueOtp({ secretKey: SECURE_APP.secretKey, userId: 'alice', now: Date.now() }).otp;
    await connectReference(first.port, SECURE_APP.appkey, { id: 'alice', otp });
    await first.server.close();
    await eventually(() => GoEasy.getConnectionStatus() === 'reconnecting', "getConnectionStatus() 'reconnecting'");
    await startServer({ sqlite, port: first.port });
    await eventually(() => GoEasy.getConnectionStatus() === 'reconnected', "getConnectionStatus() 'reconnected'");
  }, 30_000);
});
