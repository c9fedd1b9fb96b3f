import { randomBytes, randomInt } from 'node:crypto';
import { NO_DETAILS, signUpNickname, type MemberDetails, type MemberRecord, type MemberStore } from '../store/index.js';
import type { SmsProvider } from './sms.js';

/** Why a member request was refused; the product API maps each to the spec's message. */
export type MemberFailure =
  | 'bad_phone'
  | 'bad_code'
  | 'too_frequent'
  | 'code_wrong'
  | 'agreement_required'
  | 'token_invalid'
  | 'user_missing'
  | 'bad_params'
  | 'nickname_invalid'
  | 'nickname_too_soon'
  | 'img_invalid'
  | 'upload_unavailable'
  | 'feedback_content_invalid'
  | 'feedback_phone_invalid'
  | 'feedback_images_invalid'
  | 'cancel_reason_invalid'
  | 'cancel_agreement_required'
  | 'cancel_orders_open'
  | 'gender_invalid'
  | 'birthday_invalid'
  | 'region_invalid'
  | 'qianming_invalid'
  | 'background_invalid'
  | 'block_self'
  | 'block_limit'
  | 'follow_self'
  | 'follow_limit'
  | 'cert_type_invalid'
  | 'cert_name_invalid'
  | 'cert_number_invalid'
  | 'cert_images_invalid'
  | 'cert_pending'
  | 'cert_passed'
  | 'signed_already'
  | 'payout_type_invalid'
  | 'payout_name_invalid'
  | 'payout_account_invalid'
  | 'payout_code_invalid'
  | 'withdraw_amount_invalid'
  | 'withdraw_amount_range'
  | 'withdraw_agreement_required'
  | 'withdraw_account_missing'
  | 'withdraw_pending'
  | 'shop_withdraw_amount_range'
  | 'income_insufficient'
  | 'coins_insufficient'
  | 'recharge_agreement_required'
  | 'recharge_amount_invalid'
  | 'recharge_amount_range'
  | 'recharge_type_invalid'
  | 'recharge_pending'
  | 'recharge_missing'
  | 'shop_cert_required'
  | 'shop_pending'
  | 'shop_approved'
  | 'shop_name_invalid'
  | 'shop_name_taken'
  | 'shop_icon_invalid'
  | 'shop_intro_invalid'
  | 'shop_not_open'
  | 'shop_missing'
  | 'product_images_invalid'
  | 'product_title_invalid'
  | 'product_price_invalid'
  | 'product_stock_invalid'
  | 'product_content_invalid'
  | 'product_limit'
  | 'product_missing'
  | 'category_missing'
  | 'order_items_invalid'
  | 'stock_insufficient'
  | 'order_own_product'
  | 'order_pending'
  | 'order_missing'
  | 'order_state'
  | 'balance_insufficient'
  | 'payment_unavailable'
  | 'logistics_invalid'
  | 'refund_ended'
  | 'refund_open'
  | 'refund_state'
  | 'refund_return_required'
  | 'refund_amount_invalid'
  | 'refund_reason_invalid'
  | 'refund_description_invalid'
  | 'refund_images_invalid'
  | 'refund_refuse_reason_invalid'
  | 'claim_kind_invalid'
  | 'claim_description_invalid'
  | 'claim_images_invalid'
  | 'claim_window_passed'
  | 'claim_open'
  | 'claim_decided'
  | 'claim_missing'
  | 'favourite_limit'
  | 'review_state'
  | 'review_done'
  | 'review_closed'
  | 'review_ratings_invalid'
  | 'review_content_invalid'
  | 'review_missing'
  | 'review_replied'
  | 'review_reply_invalid'
  | 'announcement_missing'
  | 'article_title_short'
  | 'article_title_long'
  | 'article_content_invalid'
  | 'article_images_invalid'
  | 'article_limit'
  | 'article_missing'
  | 'video_invalid'
  | 'video_cover_missing'
  | 'channel_missing'
  | 'post_title_short'
  | 'post_title_long'
  | 'post_content_invalid'
  | 'post_images_invalid'
  | 'post_media_exclusive'
  | 'post_limit'
  | 'post_missing'
  | 'vote_invalid'
  | 'vote_ended'
  | 'vote_already'
  | 'topic_missing'
  | 'channel_last'
  | 'comment_invalid'
  | 'comment_missing'
  | 'report_content_invalid'
  | 'report_pending'
  | 'report_missing'
  | 'report_self'
  | 'address_name_invalid'
  | 'address_phone_invalid'
  | 'address_region_invalid'
  | 'address_detail_invalid'
  | 'address_limit'
  | 'address_missing'
  | 'qr_invalid'
  | 'qr_taken'
  | 'ad_missing'
  | 'weather_unavailable'
  | 'epidemic_unavailable'
  | 'pay_page_unavailable'
  | 'live_unavailable'
  | 'live_cert_required'
  | 'live_title_invalid'
  | 'live_cover_invalid'
  | 'live_goods_invalid'
  | 'live_text_invalid'
  | 'live_open'
  | 'live_missing'
  | 'live_state'
  | 'live_removed'
  | 'live_ban_self'
  | 'live_link_self'
  | 'live_link_open'
  | 'live_link_full'
  | 'live_link_missing';

/** The spec's messages (§8) for each failure, in English; the app shows its own translation by `code`. */
export const MEMBER_FAILURE_TEXT: Record<MemberFailure, string> = {
  bad_phone: 'parameter error',
  bad_code: 'parameter error',
  too_frequent: 'do not operate frequently',
  code_wrong: 'incorrect verification code',
  agreement_required: 'please agree to the user and privacy agreements',
  token_invalid: 'account expired',
  user_missing: 'user does not exist or is blocked',
  bad_params: 'parameter error',
  nickname_invalid: 'parameter error',
  nickname_too_soon: 'do not operate frequently',
  img_invalid: 'parameter error',
  upload_unavailable: 'image, video and video-cover upload failed',
  feedback_content_invalid: 'feedback needs a problem description',
  feedback_phone_invalid: 'feedback needs a correct phone number',
  feedback_images_invalid: 'parameter error',
  cancel_reason_invalid: 'please give a reason for cancelling the account',
  cancel_agreement_required: 'please agree to the account cancellation agreement',
  cancel_orders_open: 'you have orders in progress: finish them before cancelling the account',
  gender_invalid: 'parameter error',
  birthday_invalid: 'parameter error',
  region_invalid: 'parameter error',
  qianming_invalid: 'parameter error',
  background_invalid: 'parameter error',
  block_self: 'you cannot block yourself',
  block_limit: 'the block list is full',
  follow_self: 'you cannot follow yourself',
  follow_limit: 'you follow too many users',
  cert_type_invalid: 'parameter error',
  cert_name_invalid: 'parameter error',
  cert_number_invalid: 'parameter error',
  cert_images_invalid: 'parameter error',
  cert_pending: 'the certification is under review and cannot be changed',
  cert_passed: 'already certified',
  signed_already: 'already signed in today',
  payout_type_invalid: 'parameter error',
  payout_name_invalid: 'please enter the Alipay real name',
  payout_account_invalid: 'please enter the receiving account',
  payout_code_invalid: 'please upload the WeChat receipt code',
  withdraw_amount_invalid: 'the amount must be an integer',
  withdraw_amount_range: 'withdraw 1 to 200 yuan at a time',
  withdraw_agreement_required: 'please agree to the withdrawal agreement',
  withdraw_account_missing: 'please bind the withdrawal account first',
  withdraw_pending: 'a withdrawal is under review',
  shop_withdraw_amount_range: 'withdraw 1 to 50000 yuan at a time',
  income_insufficient: 'not enough income to withdraw',
  coins_insufficient: 'insufficient gold coins, please recharge',
  recharge_agreement_required: 'please agree to the recharge agreement',
  recharge_amount_invalid: 'the amount must be a whole number of yuan',
  recharge_amount_range: 'recharge at least 1 yuan and at most 100000 yuan',
  recharge_type_invalid: 'parameter error',
  recharge_pending: 'too many recharges are waiting for payment: pay or cancel one first',
  recharge_missing: 'the recharge does not exist or is no longer waiting for payment',
  shop_cert_required: 'please complete real-name certification first',
  shop_pending: 'the application is under review and cannot be edited',
  shop_approved: 'your shop is already open',
  shop_name_invalid: 'please enter the shop name: 2 to 20 characters',
  shop_name_taken: 'the shop name is taken',
  shop_icon_invalid: 'please upload the shop icon',
  shop_intro_invalid: 'please enter the shop description',
  shop_not_open: 'please open a shop first',
  shop_missing: 'the shop does not exist or is closed',
  product_images_invalid: 'please upload 1 to 9 product images',
  product_title_invalid: 'please enter the product title: 2 to 60 characters',
  product_price_invalid: 'please enter a correct price',
  product_stock_invalid: 'please enter the stock: a whole number',
  product_content_invalid: 'please enter the product details',
  product_limit: 'do not operate frequently',
  product_missing: 'the product does not exist, return to the cart',
  category_missing: 'the classification does not exist, reselect',
  order_items_invalid: 'please choose 1 to 20 products, 1 to 99 of each',
  stock_insufficient: 'insufficient stock',
  order_own_product: 'you cannot buy your own product',
  order_pending: 'too many unpaid orders: pay or cancel one first',
  order_missing: 'the order does not exist',
  order_state: 'the order status has changed, refresh and try again',
  balance_insufficient: 'insufficient balance',
  payment_unavailable: 'this payment method is not available; pay by balance',
  logistics_invalid: 'please enter the logistics company and shipment number',
  refund_ended: 'the order has ended and refund cannot be applied for',
  refund_open: 'a refund of this order is under way',
  refund_state: 'the refund status has changed, refresh and try again',
  refund_return_required: 'the buyer has received the goods: agree to the refund with return of goods',
  refund_amount_invalid: 'the refund amount is required and cannot exceed the amount paid',
  refund_reason_invalid: 'please choose the refund reason',
  refund_description_invalid: 'please describe the problem: 1 to 100 characters',
  refund_images_invalid: 'please upload 1 to 3 proof images',
  refund_refuse_reason_invalid: 'please give the reason for refusing',
  claim_kind_invalid: 'please choose what the claim is for: damage or counterfeit',
  claim_description_invalid: 'please describe what is wrong with the goods: 1 to 100 characters',
  claim_images_invalid: 'please upload 1 to 3 photos of the goods',
  claim_window_passed: 'the time to claim this guarantee on the order has passed',
  claim_open: 'a claim on this order is waiting for the platform',
  claim_decided: 'a claim of this kind on this order has been decided',
  claim_missing: 'there is no claim waiting to cancel',
  favourite_limit: 'you can keep at most 500 favourites: remove some first',
  review_state: 'only a completed order can be reviewed',
  review_done: 'this order has been reviewed',
  review_closed: 'the time to review this order has passed',
  review_ratings_invalid: 'please rate quality, service and logistics from 1 to 5',
  review_content_invalid: 'a review is at most 200 characters',
  review_missing: 'the review does not exist',
  review_replied: 'this review has been answered',
  review_reply_invalid: 'please enter a reply of 1 to 200 characters',
  announcement_missing: 'the announcement does not exist or has been removed',
  article_title_short: 'title must not be less than 5 characters',
  article_title_long: 'the title has at most 30 characters',
  article_content_invalid: 'content cannot be blank',
  article_images_invalid: 'parameter error',
  article_limit: 'do not operate frequently',
  article_missing: 'content does not exist or was deleted by the author',
  video_invalid: 'please upload a video',
  video_cover_missing: 'a video cover is required',
  channel_missing: 'the channel does not exist',
  post_title_short: 'title must not be less than 5 characters',
  post_title_long: 'the title has at most 30 characters',
  post_content_invalid: 'content cannot be blank',
  post_images_invalid: 'parameter error',
  post_media_exclusive: 'images, video and vote are mutually exclusive: remove one before adding another',
  post_limit: 'do not operate frequently',
  post_missing: 'content does not exist or was deleted by the author',
  vote_invalid: 'a vote has 2 to 10 different options and lasts 1, 3 or 7 days',
  vote_ended: 'the vote has ended',
  vote_already: 'you have voted already',
  topic_missing: 'topic does not exist or was deleted',
  channel_last: 'at least one channel must remain',
  comment_invalid: 'content cannot be blank',
  comment_missing: 'content does not exist or was deleted by the author',
  report_content_invalid: 'please describe the problem',
  report_pending: 'you reported this already; it is under review',
  report_missing: 'the report does not exist',
  report_self: 'you cannot report yourself',
  address_name_invalid: 'please enter the receiver',
  address_phone_invalid: 'please enter a correct receiving phone number',
  address_region_invalid: 'please choose the region',
  address_detail_invalid: 'please enter the shipping address',
  address_limit: 'at most 20 addresses',
  address_missing: 'the address does not exist',
  qr_invalid: 'the QR code has expired: refresh it on the other device',
  qr_taken: 'someone else scanned this QR code',
  ad_missing: 'content does not exist or was deleted by the author',
  weather_unavailable: 'the weather cannot be had now, please retry',
  epidemic_unavailable: 'the epidemic figures cannot be had now, please retry',
  pay_page_unavailable: 'the payment page cannot be opened now, please retry',
  live_unavailable: 'live streaming is not set up on this server',
  live_cert_required: 'please complete real-name certification first',
  live_title_invalid: 'please enter the live title: 1 to 30 characters',
  live_cover_invalid: 'please upload the live cover',
  live_goods_invalid: 'choose at most 20 different products on sale in your own shop',
  live_text_invalid: 'please enter 1 to 100 characters',
  live_open: 'you already have a live room that has not ended',
  live_missing: 'the live room does not exist',
  live_state: 'the live has ended',
  live_removed: 'you were removed from or muted in the live room',
  live_ban_self: 'you cannot mute or remove yourself',
  live_link_self: 'the anchor is already on stage',
  live_link_open: 'you have already asked to join',
  live_link_full: 'the stage is full: at most 3 guests',
  live_link_missing: 'the co-broadcast request has ended',
};

/** A result: the value, or the reason it was refused. */
export type MemberResult<T> = { ok: true; value: T } | { ok: false; failure: MemberFailure };

/** Limits of the login flow. */
export const MEMBER_LIMITS = {
  /** A second code for the same phone within this time is refused ("do not operate frequently"). */
  resendMs: 60_000,
  /**
   * A phone gets at most {@link MEMBER_LIMITS.maxCodesPerWindow} codes in this long, counted from the first; more
   * are refused ("do not operate frequently"). With {@link MEMBER_LIMITS.maxCodeAttempts} this bounds the guesses at
   * one phone's codes to 50 a day, and the texts a phone can be sent.
   */
  codeWindowMs: 86_400_000,
  maxCodesPerWindow: 10,
  /** A code is good for this long. */
  codeTtlMs: 300_000,
  /**
   * A code takes this many login attempts, right or wrong, even sent in parallel; then it is used up until the next
   * send, which the resend limit still spaces.
   */
  maxCodeAttempts: 5,
  /** A login token lasts this long. */
  tokenTtlMs: 30 * 86_400_000,
  /** Verification codes have 6 digits (spec §9 default code length). */
  codeLength: 6,
  /** A nickname has 1 to this many characters (Unicode code points) after trimming. */
  nicknameMaxLength: 20,
  /** The nickname can be changed once in this long (spec §9: once a month). */
  nicknameChangeIntervalMs: 30 * 86_400_000,
  /** The reason given for cancelling an account has 1 to this many characters after trimming. */
  cancelReasonMaxLength: 200,
  /** The signature (brief introduction) has at most this many characters after trimming; empty clears it. */
  qianmingMaxLength: 60,
  /** The region has at most this many characters after trimming; empty clears it. */
  regionMaxLength: 30,
  /** The earliest birthday taken. */
  birthdayMin: '1900-01-01',
} as const;

/** What {@link createMemberService} needs. */
export interface MemberServiceDeps {
  members: MemberStore;
  sms: SmsProvider;
  now: () => number;
  /** Makes a verification code. @default 6 random digits */
  makeCode?: () => string;
}

/** A logged-in member and the token that names them. */
export interface LoginOutcome {
  token: string;
  member: MemberRecord;
  /** Whether this login signed the member up. */
  created: boolean;
}

/** Product members: SMS code login, tokens, profile lookups. No HTTP here. */
export interface MemberService {
  sendCode(params: { phone: unknown; quhao?: unknown }): Promise<MemberResult<void>>;
  login(params: {
    phone: unknown;
    code: unknown;
    agree: unknown;
    quhao?: unknown;
  }): Promise<MemberResult<LoginOutcome>>;
  /** The member a token names; `token_invalid` when missing, unknown or expired. */
  byToken(token: unknown): Promise<MemberResult<MemberRecord>>;
  /** Another member's public profile. */
  profile(id: unknown): Promise<MemberResult<MemberRecord>>;
  /**
   * Changes the member's nickname (`username`), gender, birthday, region and signature (`qianming`), all checked here,
   * and avatar (`img`) and background, URLs the caller has checked against the upload storage; `bad_params` when none
   * is given.
   */
  updateProfile(memberId: string, changes: ProfileChanges): Promise<MemberResult<MemberRecord>>;
  logout(token: unknown): Promise<void>;
  /**
   * A new session (token) for a member who proved who they are some other way than a code: signed in on another
   * device that confirmed a sign-in by QR code. `user_missing` when the member is gone or cancelled.
   */
  startSession(memberId: string): Promise<MemberResult<{ token: string; member: MemberRecord }>>;
  /**
   * Cancels the member's account (spec §5: a reason and agreement to the cancellation agreement): signed out
   * everywhere, the phone free to sign up again, the nickname, avatar and feedback gone (MEM-7).
   */
  cancel(memberId: string, params: { reason: unknown; agree: unknown }): Promise<MemberResult<void>>;
}

/** What `member/profile_update` may change: the member's words unchecked, the images' URLs checked by the caller. */
export interface ProfileChanges {
  username?: unknown;
  img?: string;
  gender?: unknown;
  birthday?: unknown;
  region?: unknown;
  qianming?: unknown;
  background?: string;
}

/** Mainland mobile number: 11 digits, 1 then 2 to 9 (spec §5). */
export const MAINLAND = /^1[2-9]\d{9}$/;
/** Other countries: the local number's digits, as E.164 allows at most 15 in all. */
const INTERNATIONAL = /^\d{4,14}$/;

/**
 * The stored key of a phone number: mainland numbers bare, others with their country code (`quhao`, default 86);
 * undefined for anything else.
 */
export function phoneKey(phone: unknown, quhao: unknown): string | undefined {
  const country = typeof quhao === 'string' && quhao !== '' ? quhao.replace(/^\+/, '') : '86';
  if (typeof phone !== 'string' || !/^\d{1,4}$/.test(country)) return undefined;
  if (country === '86') return MAINLAND.test(phone) ? phone : undefined;
  return INTERNATIONAL.test(phone) ? `+${country} ${phone}` : undefined;
}

const CODE_QUOTA = {
  resendMs: MEMBER_LIMITS.resendMs,
  windowMs: MEMBER_LIMITS.codeWindowMs,
  maxSends: MEMBER_LIMITS.maxCodesPerWindow,
};

const fail = <T>(failure: MemberFailure): MemberResult<T> => ({ ok: false, failure });

/**
 * Whether `value` may name a row of a member's list (a page's `before`, a notification's `id`): left out, or a
 * string of 1 to 32 characters.
 */
export function isRowKey(value: unknown): value is string | undefined {
  return value === undefined || (typeof value === 'string' && value !== '' && value.length <= 32);
}

/** A nickname as stored: trimmed, 1 to {@link MEMBER_LIMITS.nicknameMaxLength} characters, no control characters. */
function nicknameOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  const length = [...trimmed].length;
  if (length === 0 || length > MEMBER_LIMITS.nicknameMaxLength || /\p{Cc}/u.test(trimmed)) return null;
  return trimmed;
}

/** A short line of the member's own words: trimmed, at most `max` characters, no control characters; '' clears. */
function lineOf(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return [...trimmed].length > max || /\p{Cc}/u.test(trimmed) ? null : trimmed;
}

/** A birthday `YYYY-MM-DD`: a real date from {@link MEMBER_LIMITS.birthdayMin} to `today`; '' clears it. */
function birthdayOf(value: unknown, today: string): string | null {
  if (value === '') return '';
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) return null;
  return value < MEMBER_LIMITS.birthdayMin || value > today ? null : value;
}

/** The details among `changes`, checked; a failure for the first that is not valid. */
function detailsOf(changes: ProfileChanges, now: number): Partial<MemberDetails> | MemberFailure {
  const details: Partial<MemberDetails> = {};
  const { gender, birthday, region, qianming, background } = changes;
  if (gender !== undefined) {
    if (gender !== 'male' && gender !== 'female' && gender !== 'hidden') return 'gender_invalid';
    details.gender = gender;
  }
  if (birthday !== undefined) {
    // The latest date anywhere on Earth: a member fourteen hours ahead of UTC may be born today.
    const today = new Date(now + 14 * 3_600_000).toISOString().slice(0, 10);
    const day = birthdayOf(birthday, today);
    if (day === null) return 'birthday_invalid';
    details.birthday = day;
  }
  if (region !== undefined) {
    const line = lineOf(region, MEMBER_LIMITS.regionMaxLength);
    if (line === null) return 'region_invalid';
    details.region = line;
  }
  if (qianming !== undefined) {
    const line = lineOf(qianming, MEMBER_LIMITS.qianmingMaxLength);
    if (line === null) return 'qianming_invalid';
    details.intro = line;
  }
  if (background !== undefined) details.background = background;
  return details;
}

/** Creates the member service over the store. */
export function createMemberService(deps: MemberServiceDeps): MemberService {
  const { members, sms, now } = deps;
  const makeCode =
    deps.makeCode ??
    (() => String(randomInt(0, 10 ** MEMBER_LIMITS.codeLength)).padStart(MEMBER_LIMITS.codeLength, '0'));

  async function findOrCreate(phone: string): Promise<{ member: MemberRecord; created: boolean }> {
    const existing = await members.byPhone(phone);
    if (existing) return { member: existing, created: false };
    const member: MemberRecord = {
      // Numeric ids, as the reference app's users have; random so that ids do not reveal the member count.
      id: String(randomInt(10_000_000, 100_000_000)),
      phone,
      username: signUpNickname(phone),
      img: '',
      notifyBadge: 0,
      createdAt: now(),
      usernameChangedAt: null,
      ...NO_DETAILS,
    };
    try {
      await members.insert(member);
      return { member, created: true };
    } catch (err) {
      // Two first logins of one phone at once: the other insert won, use its row.
      const winner = await members.byPhone(phone);
      if (winner) return { member: winner, created: false };
      throw err;
    }
  }

  async function newToken(memberId: string): Promise<string> {
    const token = randomBytes(24).toString('base64url');
    await members.addToken({ token, memberId, expiresAt: now() + MEMBER_LIMITS.tokenTtlMs });
    return token;
  }

  return {
    async sendCode({ phone, quhao }) {
      const key = phoneKey(phone, quhao);
      if (key === undefined) return fail('bad_phone');
      const code = makeCode();
      if (!(await members.putCode({ phone: key, code, now: now(), quota: CODE_QUOTA }))) return fail('too_frequent');
      await sms.send({ phone: key, code });
      return { ok: true, value: undefined };
    },

    async login({ phone, code, agree, quhao }) {
      if (agree !== true) return fail('agreement_required');
      const key = phoneKey(phone, quhao);
      if (key === undefined) return fail('bad_phone');
      if (typeof code !== 'string' || !/^\d{6}$/.test(code)) return fail('bad_code');
      // The attempt is counted before the code is compared, so that guesses sent at once share the five.
      const pending = await members.attemptCode(key, MEMBER_LIMITS.maxCodeAttempts);
      if (!pending || now() - pending.sentAt > MEMBER_LIMITS.codeTtlMs || pending.code !== code) {
        return fail('code_wrong');
      }
      // Two logins with the right code at once: one of them uses it.
      if (!(await members.consumeCode(key, code))) return fail('code_wrong');
      const { member, created } = await findOrCreate(key);
      return { ok: true, value: { token: await newToken(member.id), member, created } };
    },

    async byToken(token) {
      if (typeof token !== 'string' || token === '' || token.length > 64) return fail('token_invalid');
      const member = await members.byToken(token, now());
      return member ? { ok: true, value: member } : fail('token_invalid');
    },

    async profile(id) {
      if ((typeof id !== 'string' && typeof id !== 'number') || String(id).length > 32) return fail('user_missing');
      const member = await members.byId(String(id));
      return member && member.cancelledAt === undefined ? { ok: true, value: member } : fail('user_missing');
    },

    async updateProfile(memberId, changes) {
      const { username, img } = changes;
      if (Object.values(changes).every((value) => value === undefined)) return fail('bad_params');
      const nickname = username === undefined ? undefined : nicknameOf(username);
      if (nickname === null) return fail('nickname_invalid');
      const details = detailsOf(changes, now());
      if (typeof details === 'string') return fail(details);
      const current = await members.byId(memberId);
      if (!current) return fail('user_missing');
      // Once a month: sending the same nickname again is not a change, and the sign-up nickname is not counted.
      const renames = nickname !== undefined && nickname !== current.username;
      const last = current.usernameChangedAt;
      if (renames && last !== null && now() - last < MEMBER_LIMITS.nicknameChangeIntervalMs) {
        return fail('nickname_too_soon');
      }
      // MEM-5: checked again in the store's write, so that parallel renames cannot both pass.
      const changed = await members.updateProfile(memberId, {
        ...(renames && { username: nickname, renamedBefore: now() - MEMBER_LIMITS.nicknameChangeIntervalMs }),
        ...(img !== undefined && { img }),
        details,
        now: now(),
      });
      if (!changed) return fail(renames ? 'nickname_too_soon' : 'user_missing');
      const member = await members.byId(memberId);
      return member ? { ok: true, value: member } : fail('user_missing');
    },

    async logout(token) {
      if (typeof token === 'string' && token !== '') await members.deleteToken(token);
    },

    async startSession(memberId) {
      const member = await members.byId(memberId);
      if (!member || member.cancelledAt !== undefined) return fail('user_missing');
      return { ok: true, value: { token: await newToken(member.id), member } };
    },

    async cancel(memberId, { reason, agree }) {
      const text = typeof reason === 'string' ? reason.trim() : '';
      const length = [...text].length;
      if (length === 0 || length > MEMBER_LIMITS.cancelReasonMaxLength) return fail('cancel_reason_invalid');
      if (agree !== true) return fail('cancel_agreement_required');
      const cancelled = await members.cancel(memberId, { reason: text, now: now() });
      if (cancelled === 'orders') return fail('cancel_orders_open');
      return cancelled ? { ok: true, value: undefined } : fail('token_invalid');
    },
  };
}
