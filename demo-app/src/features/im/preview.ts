import type { TFunction } from 'i18next';
import type { Message } from 'parley-im';

/** The one-line preview of a message in the conversation list: its text, or "[image]" and the like. */
export function previewOf(message: Message, me: string, t: TFunction): string {
  if (message.recalled) return message.senderId === me ? t('im.youRecalled') : t('im.recalled');
  switch (message.type) {
    case 'text': {
      const payload = message.payload as { text?: unknown };
      return typeof payload?.text === 'string' ? payload.text : '';
    }
    case 'image':
    case 'file':
    case 'audio':
    case 'video':
      return t(`im.${message.type}`);
    default:
      return t('im.custom');
  }
}
