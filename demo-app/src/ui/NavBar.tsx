import { NavBar as MobileNavBar } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useClosePage } from '../app/navigation';

/** Props of {@link NavBar}. */
export interface NavBarProps {
  title: ReactNode;
  /** Show the back button; tab pages have none. @default true */
  back?: boolean;
  /** Content at the right end. */
  right?: ReactNode;
}

/** The custom navigation bar on top of almost every page (spec §2); back closes the page by the rules. */
export function NavBar({ title, back = true, right }: NavBarProps) {
  const { t } = useTranslation();
  const close = useClosePage();
  return (
    <header className="app-navbar">
      <MobileNavBar
        backIcon={back}
        back={back ? t('common.back') : null}
        onBack={close}
        right={right}
        aria-label={typeof title === 'string' ? title : undefined}
      >
        {title}
      </MobileNavBar>
    </header>
  );
}
