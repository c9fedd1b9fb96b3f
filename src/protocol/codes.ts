/**
 * The one table of result codes on the wire. Success is 200; failures carry one of the others, with a
 * `content` string from {@link MESSAGES} where the spec names one.
 */
export const CODES = {
  OK: 200,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  TIMEOUT: 408,
  NOT_CONNECTED: 409,
  TOO_MANY_REQUESTS: 429,
  SERVER_ERROR: 500,
} as const;

/** A code name of {@link CODES}. */
export type CodeName = keyof typeof CODES;
/** A numeric result code. */
export type Code = (typeof CODES)[CodeName];

/**
 * Messages the spec fixes word for word (product spec §5 and §8, reference §1). Other modules add theirs here
 * so that one table holds every message the user can see.
 */
export const MESSAGES = {
  hostEmpty: "Invalid options:'host' is empty.",
  appkeyEmpty: "Invalid options:'appkey' is empty.",
  modulesEmpty: "Invalid options: 'modules' must be nonempty array",
  tooManyHosts: 'Invalid options: at most 5 hosts.',
  unknownModule: "Invalid options: 'modules' may only hold 'im' and 'pubsub'.",
  alreadyConnected: "It is already connected, don't try again until disconnect() is called. ",
  idNotStringOrNumber: 'TypeError: id requires number or string.',
  dataNotObjectIm: 'TypeError: data requires object.',
  dataNotObject: 'TypeError: data requires an object.',
  idTooLong: 'id over max length 60',
  dataTooLong: 'user.data-length limit 300 byte.',
  wxmpIdNotObject: 'TypeError: wxmpId requires an object.',
  wxmpIdAppidMissing: 'wxmpId.appid is required.',
  wxmpIdOpenidMissing: 'wxmpId.openid is required. requires string.',
  callConnectFirst: 'Please call connect() first.',
  connectFirst: 'Please connect first',
  noPermission: 'No permission',
  timeout: 'Host unreachable or timeout',
  connectFailed: 'Failed to connect.',
  tooFrequent: 'do not operate frequently',
  invalidAppkey: 'Invalid appkey',
  otpRequired: 'otp is required.',
  otpNotString: 'TypeError: otp requires string.',
  otpInvalid: 'Invalid otp',
  otpExpired: 'otp has expired',
  serverError: 'Internal server error',
  // IM (product spec §5, §8)
  textEmpty: 'text is empty',
  textTooLong: 'Message text over max length 2500',
  messageTooLong: 'message-length limit 3kb',
  toRequired: 'message require property to.',
  toSelf: 'to.id can not be the same as your id.',
  typeEmpty: 'type is empty.',
  payloadEmpty: 'payload is empty.',
  sceneNotSupported: 'scene not support',
  sentOnce: 'Please create a new message, a message can only be sent once',
  topNotBoolean: 'top must be boolean.',
  messagesEmpty: 'messages requires non empty array',
  tooManyMessages: 'The maximum number of messages is 20',
  nothingToDelete: 'No message that could be deleted',
  recallOthers: 'it is not allowed to recall messages sent by others',
  recallCs: 'Recall CS message is not supported yet.',
  deleteCs: 'Delete CS message is not supported yet',
  incorrectConversation: 'Incorrect conversation object.',
  userIdEmpty: 'userId could not be empty.',
  groupIdEmpty: 'groupId could not be empty.',
  idEmpty: 'id could not be empty.',
  idArrayEmpty: 'ids requires non empty array',
  idArrayTooLong: 'ids over max length 300',
  idArrayDuplicate: 'ids can not be duplicated',
  idArrayBlankItem: 'ids can not contain empty item',
  oneConversation: 'messages must belong to one conversation',
  conversationNotFound: 'conversation does not exist',
  deleteSending: 'a message in sending status cannot be deleted',
  cannotMessageSelf: 'cannot message yourself',
  /** Parley's own: a `publishIM` whose `p` is not JSON (receivers JSON.parse it). */
  payloadNotJson: 'payload must be JSON.',
  imNotEnabled: "Invalid options: 'modules' does not include 'im'.",
  // Pub/sub (reference §1, product spec §5)
  publishMessageRequired: 'message is required.',
  publishMessageTooLong: 'Message over max length 10000.',
  qosInvalid: 'Qos must be 0 or 1.',
  channelRequired: 'channel is required.',
  channelOrChannels: 'subscribe to either channel or channels, not both.',
  /** Built with the channel name by `channelNotSubscribed()` in `pubsub.ts`. */
  channelNotSubscribed: 'channel[{channel}] is not subscribed',
  presenceEnableNotBoolean: 'presence enable must be boolean',
  notificationNotObject: 'notification must be an object.',
  notificationTitleTooLong: 'notification title over max length 32.',
  notificationBodyTooLong: 'notification body over max length 50.',
  badgeInvalid: 'Badge must be an integer of 0 or more.',
  channelsEmpty: 'channels requires non empty array',
  channelsTooLong: 'channels over max length 300',
  channelsDuplicate: 'channels can not be duplicated',
  channelsBlankItem: 'channels can not contain empty item',
  /** Parley's own: channels are stored and used in room names, so they are bounded. */
  channelTooLong: 'channel over max length 128',
  /** Parley's own: channel presence lists connected users, so an anonymous connection cannot be a member. */
  presenceNeedsUser: 'presence requires connect() with a user id.',
  membersLimitInvalid: 'membersLimit must be an integer from 1 to 300.',
  historyLimitInvalid: 'limit must be an integer of 1 or more.',
  onMessageRequired: 'onMessage must be a function.',
  onPresenceRequired: 'onPresence must be a function.',
  pubsubNotEnabled: "Invalid options: 'modules' does not include 'pubsub'.",
} as const;

/** A key of {@link MESSAGES}. */
export type MessageKey = keyof typeof MESSAGES;
