import { List } from 'antd-mobile';
import type { ReactNode } from 'react';
import type { usePagedList } from '../api/paged';
import { PagedList } from '../api/PagedList';
import type { FollowedMember } from './follows';
import { MemberLine } from './MemberLine';

/** A paged list of members ({@link usePagedList}'s), a {@link MemberLine} each, `empty` when there is no one. */
export function MemberList({
  list,
  empty,
  ownFans = false,
}: {
  list: ReturnType<typeof usePagedList<FollowedMember>>;
  empty: ReactNode;
  ownFans?: boolean;
}) {
  return (
    <PagedList list={list} empty={empty}>
      {(items) => (
        <List>
          {items.map((member) => (
            <MemberLine key={member.id} member={member} ownFans={ownFans} />
          ))}
        </List>
      )}
    </PagedList>
  );
}
