import { userDataJson, type Actor } from '../push.js';
import type { UserStore } from '../store/index.js';

/** Users' data as they last authorized with it: member data (`MD_CMD`) and private conversation data. */
export interface UserDirectory {
  /** IM-1: remembers the data `actor` authorized with. */
  remember(actor: Actor): Promise<void>;
  /** `MD_CMD GET`: the known users among `ids`, with their data as objects, in the order asked. */
  memberData(appkey: string, ids: readonly string[]): Promise<Array<{ id: string; data: Record<string, unknown> }>>;
  /** A user's data as JSON, or undefined when unknown. */
  dataOf(appkey: string, userId: string): Promise<string | undefined>;
}

/** Creates the user directory. */
export function createUserDirectory(deps: { users: UserStore; now: () => number }): UserDirectory {
  return {
    async remember(actor) {
      await deps.users.upsert({
        appkey: actor.app.appkey,
        userId: actor.userId,
        data: userDataJson(actor),
        now: deps.now(),
      });
    },
    async memberData(appkey, ids) {
      const found = new Map((await deps.users.find(appkey, ids)).map((u) => [u.userId, u.data]));
      return ids.flatMap((id) => {
        const data = found.get(id);
        return data === undefined ? [] : [{ id, data: JSON.parse(data) as Record<string, unknown> }];
      });
    },
    async dataOf(appkey, userId) {
      return (await deps.users.find(appkey, [userId]))[0]?.data;
    },
  };
}
