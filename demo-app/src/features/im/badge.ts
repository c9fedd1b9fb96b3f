/** The user tab's badge (spec §2): unread messages plus notifications; nothing when both are zero. */
export function userTabBadge(unreadMessages: number, notifications: number): string | undefined {
  const total = Math.max(0, unreadMessages) + Math.max(0, notifications);
  if (total === 0) return undefined;
  return total > 99 ? '99+' : String(total);
}
