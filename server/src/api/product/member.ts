import type { CsConfig } from '../../config.js';
import type { MemberRecord } from '../../store/index.js';
import { agentTeams } from './cs.js';
import { ownProfile, publicProfile } from './profile.js';
import type { ProductApiDeps } from './index.js';
import { refuse, type ProductPost } from './reply.js';

/**
 * The user object the app keeps under `user` (spec §3): the member's own profile, how many they follow (`follows`),
 * how many follow them (`fans`) and the likes their articles, videos and circle posts have received (`likes`),
 * whether they are certified (`shiming`: 1 once their real-name certification passed, else 0) and how many of their
 * notifications are unread (`member_notify_badge`), never the phone number in full. `cs_teams` lists the
 * customer-service teams the member is an agent of (`[{id, name}]`, empty for everyone else).
 */
export function userObject(
  member: MemberRecord,
  cs: CsConfig,
  {
    counts,
    certified,
    unread,
  }: { counts: { follows: number; fans: number; likes: number }; certified: boolean; unread: number },
) {
  return {
    ...ownProfile(member),
    ...counts,
    shiming: certified ? 1 : 0,
    phone: member.phone.replace(
      /^(.*)(\d{4})(\d{4})$/,
      (_all, head: string, _mid: string, tail: string) => `${head}****${tail}`,
    ),
    member_notify_badge: unread,
    cs_teams: agentTeams(cs, member),
  };
}

/** A member's follow counts and likes received (spec §3 "fans, likes"). */
export async function profileCounts(deps: ProductApiDeps, memberId: string) {
  const [follows, onArticles, onPosts] = await Promise.all([
    deps.follows.counts(memberId),
    deps.reactions.received(memberId),
    deps.circleReactions.received(memberId),
  ]);
  return { ...follows, likes: onArticles + onPosts };
}

/** A member's counts, whether they are certified and how many of their notifications are unread. */
export async function relations(deps: ProductApiDeps, memberId: string) {
  const [counts, certified, unread] = await Promise.all([
    profileCounts(deps, memberId),
    deps.certifications.certified(memberId),
    deps.notices.unread(memberId),
  ]);
  return { counts, certified, unread };
}

/** Login by SMS code, session info, logout and public profiles. */
export function memberRoutes(post: ProductPost, deps: ProductApiDeps): void {
  // -> {ret: {token, ...user}, otp}: the otp lets the app connect to messaging as this member at once. `invite?` is
  // the code of the member who invited them, which counts on the login that signs them up.
  post('member/login', async (body) => {
    const result = await deps.members.login({
      phone: body['phone'],
      code: body['code'],
      agree: body['agree'],
      quhao: body['quhao'],
    });
    if (!result.ok) return refuse(result.failure);
    const { token, member, created } = result.value;
    // A new member invited with a code (renwu/yaoqing): the inviter is paid; a code that names no one is ignored.
    if (created && body['invite'] !== undefined) await deps.invitations.accept(member, body['invite']);
    return {
      ret: { token, ...userObject(member, deps.cs, await relations(deps, member.id)) },
      otp: deps.issueOtp(member.id) ?? null,
    };
  });

  // -> {ret: user, otp} or {err} when the token is missing, unknown or expired (the app then shows "account expired").
  // A fresh otp comes along so that an app started with a stored user can connect to messaging.
  post('member/info', async (body) => {
    const result = await deps.members.byToken(body['token']);
    if (!result.ok) return refuse(result.failure);
    const user = userObject(result.value, deps.cs, await relations(deps, result.value.id));
    return { ret: user, otp: deps.issueOtp(result.value.id) ?? null };
  });

  post('member/logout', async (body) => {
    await deps.members.logout(body['token']);
    return { ret: true };
  });

  // Account cancellation (spec §2 member/out): `reason` and `agree: true`; -> {ret: true}, and every token is gone.
  post('member/out', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    // LIVE-10, LIVE-15: the cancellation ends the member's live room and their co-broadcast links; each room's
    // viewers are told once it has.
    const [room, linked] = await Promise.all([deps.live.openRoomOf(me.value.id), deps.live.linkRoomsOf(me.value.id)]);
    const result = await deps.members.cancel(me.value.id, { reason: body['reason'], agree: body['agree'] });
    if (!result.ok) return refuse(result.failure);
    if (room !== undefined) await deps.live.announceEnd(room);
    await deps.live.announceLinkEnds(me.value.id, linked);
    // MEM-7: the files the deleted data named go now; what fails here, the next sweep deletes.
    void deps.cleanUploads().catch(() => 0);
    return { ret: true };
  });

  // Another member's public face (name, avatar, gender, region, signature, background), for chat headers and homes:
  // how many they follow, how many follow them and the likes they received (`likes`), whether they are certified
  // (`shiming`, spec §3), whether the asking member has blocked them (`blocked`) and follows them (`followed`). Needs
  // a valid token like all member paths.
  post('member/profile', async (body) => {
    const me = await deps.members.byToken(body['token']);
    if (!me.ok) return refuse(me.failure);
    const result = await deps.members.profile(body['id']);
    if (!result.ok) return refuse(result.failure);
    const [blocked, followed, counts, certified] = await Promise.all([
      deps.blocks.has(me.value.id, result.value.id),
      deps.follows.follows(me.value.id, result.value.id),
      profileCounts(deps, result.value.id),
      deps.certifications.certified(result.value.id),
    ]);
    return { ret: { ...publicProfile(result.value), ...counts, shiming: certified ? 1 : 0, blocked, followed } };
  });
}
