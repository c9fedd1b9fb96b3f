import { Tabs } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import '../content/articles.css';

/** The route param naming a list's tab, so that a link (or back) opens the tab it names. */
export const ORDER_TAB_PARAM = 'status';

/**
 * Tabs over lists of orders (or of the shop's reviews): `tabs` in order, each titled `title(tab)`, the one of param
 * `status` shown (else the first) with `children(tab)`, mounted anew for each tab.
 */
export function OrderTabs<Tab extends string>({
  tabs,
  title,
  children,
}: {
  tabs: readonly Tab[];
  title: (tab: Tab) => string;
  children: (tab: Tab) => ReactNode;
}) {
  const [params, setParams] = useSearchParams();
  const param = params.get(ORDER_TAB_PARAM);
  const active = tabs.find((tab) => tab === param) ?? tabs[0];
  return (
    <>
      <div className="front-channels">
        <Tabs
          activeKey={active ?? null}
          onChange={(key) => setParams({ [ORDER_TAB_PARAM]: key }, { replace: true })}
          stretch={false}
          className="front-tabs"
        >
          {tabs.map((tab) => (
            <Tabs.Tab key={tab} title={title(tab)} />
          ))}
        </Tabs>
      </div>
      {active !== undefined && <div key={active}>{children(active)}</div>}
    </>
  );
}
