import type { TFunction } from 'i18next';
import { CODES, MESSAGES, ParleyError } from 'parley-im';

/**
 * The SDK's messages (spec §8: `ParleyError.content`, in the reference's English) the app says in its own words.
 * Several messages may share a key; one not listed falls back to its code's words.
 */
const BY_CONTENT: ReadonlyMap<string, string> = new Map([
  [MESSAGES.textEmpty, 'imErrors.textEmpty'],
  [MESSAGES.textTooLong, 'im.textTooLong'],
  [MESSAGES.messageTooLong, 'imErrors.messageTooLong'],
  [MESSAGES.toSelf, 'im.cannotMessageYourself'],
  [MESSAGES.cannotMessageSelf, 'im.cannotMessageYourself'],
  [MESSAGES.emptyMessage, 'imErrors.fileEmpty'],
  [MESSAGES.fileEmpty, 'imErrors.fileEmpty'],
  [MESSAGES.wrongFileType, 'imErrors.wrongFileType'],
  [MESSAGES.fileSizeZero, 'imErrors.fileSizeZero'],
  [MESSAGES.fileTooLarge, 'imErrors.fileTooLarge'],
  [MESSAGES.uploadTooLarge, 'imErrors.fileTooLarge'],
  [MESSAGES.uploadAborted, 'imErrors.uploadAborted'],
  [MESSAGES.noPermission, 'imErrors.noPermission'],
  [MESSAGES.blocked, 'imErrors.blocked'],
  [MESSAGES.tooFrequent, 'imErrors.tooFrequent'],
  [MESSAGES.timeout, 'imErrors.timeout'],
  [MESSAGES.connectFailed, 'imErrors.timeout'],
  [MESSAGES.callConnectFirst, 'imErrors.notConnected'],
  [MESSAGES.connectFirst, 'imErrors.notConnected'],
  [MESSAGES.recallOthers, 'imErrors.recallNotAllowed'],
  [MESSAGES.deleteSending, 'imErrors.deleteSending'],
  [MESSAGES.conversationNotFound, 'imErrors.conversationNotFound'],
  [MESSAGES.csOfflineWithCustomers, 'cs.offlineWithCustomers'],
  [MESSAGES.csNotYourCustomer, 'imErrors.csNotYourCustomer'],
  [MESSAGES.csAlreadyAccepted, 'imErrors.csAlreadyAccepted'],
  [MESSAGES.csAcceptedByOther, 'imErrors.csAcceptedByOther'],
  [MESSAGES.csTransferTarget, 'imErrors.csTransferTarget'],
  [MESSAGES.csPendingConversation, 'imErrors.csPendingConversation'],
  [MESSAGES.csNotEnded, 'imErrors.csNotEnded'],
]);

/** `Only gif,jpg,png,jpeg is supported image.` and its audio and video forms (`unsupportedMediaType`). */
const UNSUPPORTED = /^Only (.+) is supported (image|audio|video)\.$/;
const UNSUPPORTED_KEYS = {
  image: 'imErrors.unsupportedImage',
  audio: 'imErrors.unsupportedAudio',
  video: 'imErrors.unsupportedVideo',
} as const;
/** `message[0] is sending and cannot be recalled`, `message[0] has been recalled`. */
const NOT_RECALLABLE = /^message\[\d+\] (is \w+ and cannot be recalled|has been recalled)$/;

/** Storage refusals (S3's and OSS's words) and other upload failures: the user can only try again. */
const UPLOAD_FAILURES: readonly string[] = [
  MESSAGES.uploadFailed,
  MESSAGES.uploadTokenInvalid,
  MESSAGES.uploadPolicyExpired,
  MESSAGES.uploadPolicyFailed,
  MESSAGES.uploadSignatureMismatch,
  MESSAGES.uploadTooSmall,
  MESSAGES.uploadKeyInvalid,
  MESSAGES.uploadFormInvalid,
  MESSAGES.uploadNotFound,
];

/** The words for a failure code when the message itself is not one the app knows. */
function byCode(code: number): string {
  switch (code) {
    case CODES.UNAUTHORIZED:
      return 'imErrors.noPermission';
    case CODES.TIMEOUT:
      return 'imErrors.timeout';
    case CODES.NOT_CONNECTED:
      return 'imErrors.notConnected';
    case CODES.TOO_MANY_REQUESTS:
      return 'imErrors.tooFrequent';
    default:
      return 'common.operationFailed';
  }
}

/**
 * What to tell the user about a failed messaging call, in their language: the SDK's `ParleyError` by its message,
 * else by its code; anything else is an unknown error. Never the SDK's English text itself.
 */
export function errorText(error: unknown, t: TFunction): string {
  if (!(error instanceof ParleyError)) return t('common.unknownError');
  const { code, content } = error;
  const known = BY_CONTENT.get(content);
  if (known) return t(known);
  const unsupported = UNSUPPORTED.exec(content);
  if (unsupported) {
    const list = (unsupported[1] ?? '').split(',').join(', ');
    return t(UNSUPPORTED_KEYS[unsupported[2] as 'image' | 'audio' | 'video'], { list });
  }
  if (NOT_RECALLABLE.test(content)) return t('imErrors.recallNotAllowed');
  if (UPLOAD_FAILURES.some((prefix) => content.startsWith(prefix))) return t('imErrors.uploadFailed');
  return t(byCode(code));
}
