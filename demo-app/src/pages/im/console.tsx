import { ErrorBlock, Selector } from 'antd-mobile';
import { useParleyClient } from 'parley-im/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useMessaging } from '../../app/messaging';
import { useSession } from '../../app/session';
import { useAppConfig } from '../../features/api/config';
import { ConnectionBanner } from '../../features/cs/ChatParts';
import { CsConsole } from '../../features/cs/Console';
import { createSdkDesk } from '../../features/cs/desk';
import { agentTeamsOf, teamTitle, type CsTeamInfo } from '../../features/cs/teams';
import type { StoredUser } from '../../features/member/api';
import { MessagingGate } from '../../features/im/MessagingGate';
import { NavBar } from '../../ui/NavBar';

/** The console of one team over the SDK; the chosen customer lives in the URL, so back works on a phone. */
function TeamConsole({ team, user }: { team: CsTeamInfo; user: StoredUser }) {
  const client = useParleyClient();
  const emoji = useAppConfig().data?.emoji;
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const desk = useMemo(
    () =>
      createSdkDesk({
        client,
        me: user.id,
        teamId: team.id,
        // The configured name, even empty: each customer's app then names the team in their own language.
        teamData: { name: team.name },
        agentData: { name: user.username, avatar: user.img },
      }),
    [client, user.id, user.username, user.img, team.id, team.name],
  );
  const onSelect = (customerId: string | undefined) => {
    if (customerId !== undefined) {
      void navigate(
        { search: `?${new URLSearchParams({ team: team.id, customer: customerId }).toString()}` },
        {
          state: { fromList: true },
        },
      );
    } else if ((location.state as { fromList?: boolean } | null)?.fromList) {
      void navigate(-1);
    } else {
      setParams({ team: team.id }, { replace: true });
    }
  };
  return (
    <>
      <ConnectionBanner />
      <CsConsole desk={desk} selectedId={params.get('customer') ?? undefined} onSelect={onSelect} emoji={emoji} />
    </>
  );
}

/** im/console?team=&customer=: the customer-service console, for members who are agents of a team. */
export default function ImConsole() {
  const { t } = useTranslation();
  const { user } = useSession();
  const { available } = useMessaging();
  const [params, setParams] = useSearchParams();
  const teams = agentTeamsOf(user);
  const team = teams.find((x) => x.id === params.get('team')) ?? teams[0];

  let body;
  if (!user || !team) {
    body = <ErrorBlock status="empty" title={t('cs.notAgent')} description="" />;
  } else if (!available) {
    body = <MessagingGate>{null}</MessagingGate>;
  } else {
    body = <TeamConsole key={team.id} team={team} user={user} />;
  }
  return (
    <div className="page page-cs">
      <NavBar title={t('cs.console')} />
      {teams.length > 1 && team && (
        <Selector
          className="cs-teams"
          options={teams.map((x) => ({ label: teamTitle(x.name, t), value: x.id }))}
          value={[team.id]}
          onChange={(values) => values[0] && setParams({ team: values[0] })}
        />
      )}
      {body}
    </div>
  );
}
