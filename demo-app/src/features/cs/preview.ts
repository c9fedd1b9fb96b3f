import type { TFunction } from 'i18next';
import { CS_MESSAGE_TYPES, type CsEventPayload, type Message } from 'parley-im';
import { previewOf } from '../im/preview';
import { nameOf } from './status';

/** Whether a message is a session event: accept, transfer or end. */
export function isSessionEvent(m: Message): boolean {
  return m.type === CS_MESSAGE_TYPES.accept || m.type === CS_MESSAGE_TYPES.transfer || m.type === CS_MESSAGE_TYPES.end;
}

/**
 * A customer-service message in one line: a session event in words ("Ann accepted the session", "Handed over to
 * Ben", "The session has ended"), anything else as chat previews read.
 */
export function csPreview(m: Message, me: string, t: TFunction): string {
  if (m.scene !== 'cs' || !isSessionEvent(m)) return previewOf(m, me, t);
  const agent = (data: Record<string, unknown> | undefined, id: string | undefined) =>
    nameOf(data) || id || t('cs.agent');
  if (m.type === CS_MESSAGE_TYPES.accept) return t('cs.noticeAccepted', { name: agent(m.senderData, m.senderId) });
  if (m.type === CS_MESSAGE_TYPES.transfer) {
    const to = (m.payload as Partial<CsEventPayload> | null)?.transferTo;
    return t('cs.noticeTransferred', { name: agent(to?.data, to?.id) });
  }
  return t('cs.noticeEnded');
}
