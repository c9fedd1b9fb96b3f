import { describe, expect, it } from 'vitest';
import { sessionOtpProvider } from './otp';

describe('the messaging otp of the session', () => {
  it('gives the session’s otp once, then a fresh one when asked again; a newer session otp goes first', async () => {
    let session: string | null = 'login-otp';
    const fetched: string[] = [];
    const provider = sessionOtpProvider(
      () => session,
      () => {
        fetched.push(`fresh-${fetched.length + 1}`);
        return Promise.resolve(fetched.at(-1) ?? null);
      },
    );
    expect(await provider()).toBe('login-otp');
    // Asked again with the same session otp: the server refused it, so member/info is asked.
    expect(await provider()).toBe('fresh-1');
    expect(await provider()).toBe('fresh-2');
    // An app show read member/info meanwhile: that one, without asking.
    session = 'shown-otp';
    expect(await provider()).toBe('shown-otp');
    expect(fetched).toEqual(['fresh-1', 'fresh-2']);
  });

  it('fails when no otp comes, so that the SDK tries again later', async () => {
    const provider = sessionOtpProvider(
      () => null,
      () => Promise.resolve(null),
    );
    await expect(provider()).rejects.toThrow('no messaging otp for this user');
  });
});
