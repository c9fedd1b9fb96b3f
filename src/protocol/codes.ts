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
  initFailed: 'Initialization failed. Please disconnect and try again.',
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
  otpNotString: 'TypeError: otp requires string or function.',
  otpProviderFailed: 'The otp provider failed:',
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
  typingNotBoolean: 'typing must be boolean.',
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
  /**
   * Parley's own (IM-29), in the words of product spec §8: a private message between two users one of whom blocked
   * the other, where the host tells the server of blocks (the product app's block list).
   */
  blocked: 'user does not exist or is blocked',
  /** Parley's own: a `publishIM` whose `p` is not JSON (receivers JSON.parse it). */
  payloadNotJson: 'payload must be JSON.',
  /** Parley's own (WIRE-10): the user already has the most connections a server node takes for one user. */
  tooManyConnections: 'too many connections of this user on this server',
  /** Parley's own: a request holding U+0000 in a string, which no store keeps as text. */
  nulCharacter: 'parameter error (a string holds the NUL character)',
  imNotEnabled: "Invalid options: 'modules' does not include 'im'.",
  // Customer service (product spec §5, §8)
  csCustomerRequired: 'customer is required.',
  csCustomerDataEmpty: 'customer data must be non-empty object.',
  csDataNotObjects: 'Agent and team data must be objects',
  csQueryOptions: 'incorrect query options.',
  /** Parley's own: offline() while the agent still holds accepted customers in the team. */
  csOfflineWithCustomers: 'Cannot go offline while you still have accepted customers: end or transfer them first.',
  /** Parley's own: end, transfer or an agent's message for a customer this agent has not accepted. */
  csNotYourCustomer: 'The customer is not accepted by you.',
  csEventReserved: 'CS_ACCEPT, CS_END and CS_TRANSFER messages are sent by the server only.',
  /** Parley's own: accept of a customer this agent already holds. */
  csAlreadyAccepted: 'The customer is already accepted by you.',
  /** Parley's own: accept of a customer another agent holds. */
  csAcceptedByOther: 'The customer has been accepted by another agent.',
  /** Parley's own: transfer to someone who is not an online agent of the team (or to oneself). */
  csTransferTarget: 'The target agent must be another online agent of the team.',
  /** Parley's own: `csteam(teamId).createXMessage` addresses a customer, not the team itself. */
  csTargetNotCustomer: 'to.id must be a customer of the team.',
  /** Parley's own: product spec §5, a pending conversation cannot be topped or removed. */
  csPendingConversation: 'A pending customer service conversation cannot be topped or removed.',
  /** Parley's own: product spec §5, a CS conversation is deleted only after it ends. */
  csNotEnded: 'A customer service conversation can be removed only after it ends.',
  // User events (USER-1)
  userEventNameRequired: 'name is required.',
  userEventNameTooLong: 'name over max length 64.',
  userEventDataTooLarge: 'data over max size 4kb.',
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
  /** Parley's own (IM-28): the groups one user is a member of are bounded. */
  userGroupsTooMany: 'subscribed groups over max 1000',
  /** Parley's own (PRES-7): the users whose presence one user subscribes to are bounded. */
  userPresenceTooMany: 'user presence subscriptions over max 1000',
  /** Parley's own (PRES-7): the groups whose presence one user subscribes to are bounded. */
  groupPresenceTooMany: 'group presence subscriptions over max 1000',
  /** Parley's own (PUB-17): the channels one session subscribes to are bounded. */
  sessionChannelsTooMany: 'subscribed channels over max 1000',
  /** Parley's own (PUB-17): the presence watches of one session are bounded. */
  sessionWatchesTooMany: 'presence subscriptions over max 1000',
  /** Parley's own: channel presence lists connected users, so an anonymous connection cannot be a member. */
  presenceNeedsUser: 'presence requires connect() with a user id.',
  membersLimitInvalid: 'membersLimit must be an integer from 1 to 300.',
  historyLimitInvalid: 'limit must be an integer of 1 or more.',
  onMessageRequired: 'onMessage must be a function.',
  onPresenceRequired: 'onPresence must be a function.',
  pubsubNotEnabled: "Invalid options: 'modules' does not include 'pubsub'.",
  // Uploads and rich messages (product spec §5, §8; the reference's own words where it has them)
  emptyMessage: 'it is an empty message.',
  fileEmpty: 'file is empty.',
  wrongFileType: 'wrong file type.',
  fileSizeZero: 'File size is 0.',
  fileTooLarge: 'message-length limit 30mib',
  /** Built with the kind and its type list by `unsupportedMediaType()` in `upload.ts`. */
  unsupportedMediaType: 'Only {list} is supported {kind}.',
  filenameEmpty: 'filename is required.',
  filenameTooLong: 'filename over max length 255',
  uploadAborted: 'Upload aborted.',
  /** Prefix of an upload failure; the HTTP status or cause follows. */
  uploadFailed: 'Upload failed',
  uploadTokenInvalid: 'The upload token from the server is not usable.',
  // Upload storage answers (S3's and OSS's words, so that tools that know them read them)
  uploadPolicyExpired: 'Invalid according to Policy: Policy expired.',
  uploadPolicyFailed: 'Invalid according to Policy: Policy Condition failed',
  uploadSignatureMismatch: 'The request signature we calculated does not match the signature you provided.',
  uploadTooLarge: 'Your proposed upload exceeds the maximum allowed size.',
  uploadTooSmall: 'Your proposed upload is smaller than the minimum allowed size.',
  uploadKeyInvalid: 'Invalid key.',
  uploadFormInvalid: 'Bucket POST must contain a file field named file, after the policy fields.',
  uploadFieldRepeated: 'A form field is given more than once (field names are read without case).',
  uploadNotFound: 'The specified key does not exist.',
  snapshotInvalid: 'The video/snapshot parameters are not valid, or the file is not a video.',
  snapshotUnavailable: 'No snapshot can be taken of this video.',
} as const;

/** A key of {@link MESSAGES}. */
export type MessageKey = keyof typeof MESSAGES;
