import type { ProductApiDeps } from './index.js';
import { relations, userObject } from './member.js';
import { refuse, type ProductPost } from './reply.js';

/**
 * Sign-in by QR code (spec §2 user/scan-login; docs/product-app.md): a device that is not signed in asks for a ticket
 * and shows it as a QR code, a member's signed-in phone scans it and confirms, and the device's next poll gets a
 * session of its own.
 */
export function qrLoginRoutes(post: ProductPost, deps: ProductApiDeps): void {
  // {agree: true} -> {ret: {ticket, key, expires_at}}: the code shows `ticket`; `key` stays on the device, for its
  // polls. The device's user agrees to the user and privacy agreements first, as for a code login (spec §5).
  post('member/qr_login', async (body, request) => {
    if (body['agree'] !== true) return refuse('agreement_required');
    const { ticket, key, expiresAt } = await deps.qrLogin.create({
      userAgent: request.headers['user-agent'],
      address: request.ip,
    });
    return { ret: { ticket, key, expires_at: expiresAt } };
  });

  // {ticket, key} -> {ret: {status, ...}}: waiting (and expires_at), scanned (user: the scanner's name and avatar),
  // cancelled, expired, or confirmed with the device's own user object and token, and an otp, as member/login answers.
  post('member/qr_login_status', async (body) => {
    const result = await deps.qrLogin.poll(body['ticket'], body['key']);
    if (!result.ok) return refuse(result.failure);
    const state = result.value;
    switch (state.status) {
      case 'waiting':
        return { ret: { status: state.status, expires_at: state.expiresAt } };
      case 'scanned':
        return {
          ret: {
            status: state.status,
            expires_at: state.expiresAt,
            user: { username: state.member.username, img: state.member.img },
          },
        };
      case 'confirmed': {
        const { token, member } = state;
        return {
          ret: {
            status: state.status,
            user: { token, ...userObject(member, deps.cs, await relations(deps, member.id)) },
          },
          otp: deps.issueOtp(member.id) ?? null,
        };
      }
      case 'cancelled':
      case 'expired':
        return { ret: { status: state.status } };
    }
  });

  // {token, ticket} -> {ret: {device, address, created_at, expires_at}}: what the member is asked to confirm.
  post('member/qr_login_scan', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.qrLogin.scan(me.value.id, body['ticket']);
    if (!result.ok) return refuse(result.failure);
    const { device, address, createdAt, expiresAt } = result.value;
    return { ret: { device, address, created_at: createdAt, expires_at: expiresAt } };
  });

  for (const [path, confirm] of [
    ['member/qr_login_confirm', true],
    ['member/qr_login_cancel', false],
  ] as const) {
    // {token, ticket} -> {ret: true}: only the member who scanned it, once, before it expires.
    post(path, async (body) => {
      const me = await deps.members.byToken(body['token']);
      if (!me.ok) return refuse(me.failure);
      const result = await deps.qrLogin.settle(me.value.id, body['ticket'], confirm);
      return result.ok ? { ret: true } : refuse(result.failure);
    });
  }
}
