import { useQuery } from '@tanstack/react-query';
import { ErrorBlock, List, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { usePagedList } from '../../features/api/paged';
import { PagedList } from '../../features/api/PagedList';
import { QueryView } from '../../features/api/QueryView';
import { REPORTS_QUERY, reportPage, reportView, type Report, type ReportStatus } from '../../features/content/reports';
import { NavBar } from '../../ui/NavBar';

const STATUS_COLOR: Record<ReportStatus, 'warning' | 'success' | 'default'> = {
  pending: 'warning',
  upheld: 'success',
  dismissed: 'default',
};

/** Where a report stands, as a tag: an upheld report of a member reset their profile, of content removed it. */
function StatusTag({ report }: { report: Report }) {
  const { t } = useTranslation();
  const { status } = report;
  const key = status === 'upheld' && report.type === 'user' ? 'report.status_upheld_user' : `report.status_${status}`;
  return <Tag color={STATUS_COLOR[status]}>{t(key)}</Tag>;
}

/** Where what a report is of opens, if anywhere: an article while it stands, or the member reported. */
function reportedTarget(report: Report): string | undefined {
  const id = encodeURIComponent(report.target_id);
  if (report.type === 'user') return `user/home?id=${id}`;
  return report.type === 'article' && report.status !== 'upheld' ? `article/view?id=${id}` : undefined;
}

/**
 * One report: what was reported (an article, opening it while it stands, a circle post, a comment, or a member,
 * opening their home) and why, when, and the decision with its reason.
 */
function ReportDetail({ report }: { report: Report }) {
  const { t, i18n } = useTranslation();
  const open = useNavigateTo();
  const at = (time: number) => new Date(time).toLocaleString(i18n.language);
  const target = reportedTarget(report);
  return (
    <List>
      <List.Item
        title={t('report.reported')}
        description={t(`report.kind_${report.type}`)}
        onClick={target === undefined ? undefined : () => open(target)}
      >
        {report.title}
      </List.Item>
      <List.Item title={t('report.said')}>
        <span className="article-comment">{report.content}</span>
      </List.Item>
      <List.Item title={t('report.sentAt')}>{at(report.created_at)}</List.Item>
      <List.Item title={t('report.decision')} extra={<StatusTag report={report} />}>
        {report.status === 'pending' ? t('report.underReview') : report.reason}
      </List.Item>
      {report.reviewed_at !== null && <List.Item title={t('report.decidedAt')}>{at(report.reviewed_at)}</List.Item>}
    </List>
  );
}

/**
 * Reports (spec §2 article/jubao_view): with `id`, one of the member's reports and the decision on it; without, the
 * member's reports, newest first, each opening its detail.
 */
export default function Reports() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const context = { token: user?.token, locale: i18n.language };
  const detail = useQuery({
    queryKey: [REPORTS_QUERY, user?.id, 'view', id],
    queryFn: () => reportView(id, context),
    enabled: user !== null && id !== '',
    retry: false,
  });
  const list = usePagedList(
    [REPORTS_QUERY, user?.id, 'mine'],
    (before) => reportPage(before, context),
    user !== null && id === '',
  );
  if (!user) return null;
  return (
    <div className="page">
      <NavBar title={id ? t('report.detailTitle') : t('report.mine')} />
      {id ? (
        <QueryView query={detail}>{(report) => <ReportDetail report={report} />}</QueryView>
      ) : (
        <PagedList list={list} empty={<ErrorBlock status="empty" title={t('report.none')} description="" />}>
          {(items) => (
            <List>
              {items.map((report) => (
                <List.Item
                  key={report.id}
                  data-testid="report"
                  description={new Date(report.created_at).toLocaleString(i18n.language)}
                  extra={<StatusTag report={report} />}
                  onClick={() => open(`article/jubao_view?id=${encodeURIComponent(report.id)}`)}
                >
                  {report.title}
                </List.Item>
              ))}
            </List>
          )}
        </PagedList>
      )}
    </div>
  );
}
