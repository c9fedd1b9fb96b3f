import { Button, ErrorBlock, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { degrees, geoLink, mapLink, placeOf } from '../../features/location/location';
import { copyText } from '../../ui/clipboard';
import { NavBar } from '../../ui/NavBar';

/**
 * A place (spec §2 other/open-location?latitude=&longitude=&name=&address=): its name, address and coordinates, with
 * ways to see it on a map: the phone's maps app (a `geo:` link), OpenStreetMap in the browser, or the coordinates
 * copied. Coordinates that are not a place give "link does not exist".
 */
export default function OpenLocation() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const place = placeOf(params);
  return (
    <div className="page">
      <NavBar title={place?.name || t('location.title')} />
      {place ? (
        <>
          <List>
            {place.name && <List.Item title={t('location.name')}>{place.name}</List.Item>}
            {place.address && <List.Item title={t('location.address')}>{place.address}</List.Item>}
            <List.Item title={t('location.coordinates')} data-testid="location-coordinates">
              {degrees(place)}
            </List.Item>
          </List>
          <div className="location-actions">
            <Button block color="primary" onClick={() => window.location.assign(geoLink(place))}>
              {t('location.openApp')}
            </Button>
            <a
              className="adm-button adm-button-default adm-button-block"
              href={mapLink(place)}
              target="_blank"
              rel="noreferrer"
            >
              {t('location.openMap')}
            </a>
            <Button block onClick={() => void copyText(degrees(place), t('location.copied'), t('location.copyFailed'))}>
              {t('location.copy')}
            </Button>
          </div>
        </>
      ) : (
        <ErrorBlock status="empty" title={t('common.linkMissing')} description="" />
      )}
    </div>
  );
}
