import type { ProductApiDeps } from './index.js';
import { refuse, type ProductPost } from './reply.js';

/** `member/send_code {phone, quhao?}`: sends a 6-digit login code; again within 60 s is "do not operate frequently". */
export function smsRoutes(post: ProductPost, deps: ProductApiDeps): void {
  post('member/send_code', async (body) => {
    const sent = await deps.members.sendCode({ phone: body['phone'], quhao: body['quhao'] });
    return sent.ok ? { ret: true } : refuse(sent.failure);
  });
}
