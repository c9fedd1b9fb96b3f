import { Button, Form, Input } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { coordinate, withPlace, type Place } from '../../features/location/location';
import { toastError } from '../../ui/toast';
import { NavBar } from '../../ui/NavBar';

/** A place's name and address, at most this many characters each. */
export const PLACE_TEXT_MAX = 100;

/** How long the browser may take to find the phone, ms. */
const LOCATE_TIMEOUT_MS = 15_000;

/** Where a chosen place goes back to: an app path (`/...`), never another site. */
const appPath = (value: string | null) => (value && /^\/(?!\/)/.test(value) ? value : undefined);

/**
 * Choose a place (spec §2 other/choose-location?back=): where the phone is (the browser's position, asked for on a
 * tap) or coordinates typed, with a name and an address. "Use this place" goes back to `back` (an app path) with the
 * place in its query (`latitude`, `longitude`, `name`, `address`), or without one opens the place
 * (other/open-location).
 */
export default function ChooseLocation() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const back = appPath(params.get('back'));
  const [latitude, setLatitude] = useState(params.get('latitude') ?? '');
  const [longitude, setLongitude] = useState(params.get('longitude') ?? '');
  const [name, setName] = useState(params.get('name') ?? '');
  const [address, setAddress] = useState(params.get('address') ?? '');
  const [locating, setLocating] = useState(false);

  const locate = () => {
    if (!('geolocation' in navigator)) {
      toastError(t('location.unavailable'));
      return;
    }
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setLocating(false);
        setLatitude(position.coords.latitude.toFixed(6));
        setLongitude(position.coords.longitude.toFixed(6));
      },
      () => {
        setLocating(false);
        toastError(t('location.denied'));
      },
      { enableHighAccuracy: true, timeout: LOCATE_TIMEOUT_MS },
    );
  };

  const use = () => {
    const lat = coordinate(latitude, 90);
    if (lat === undefined) return toastError(t('location.latitudeInvalid'));
    const lon = coordinate(longitude, 180);
    if (lon === undefined) return toastError(t('location.longitudeInvalid'));
    const place: Place = { latitude: lat, longitude: lon, name: name.trim(), address: address.trim() };
    void navigate(withPlace(back ?? '/other/open-location', place), { replace: back !== undefined });
  };

  return (
    <div className="page">
      <NavBar title={t('location.choose')} />
      <Form layout="horizontal">
        <Form.Item>
          <Button block loading={locating} onClick={locate}>
            {t('location.here')}
          </Button>
        </Form.Item>
        <Form.Item label={t('location.latitude')}>
          <Input value={latitude} onChange={setLatitude} inputMode="decimal" placeholder="30.250000" />
        </Form.Item>
        <Form.Item label={t('location.longitude')}>
          <Input value={longitude} onChange={setLongitude} inputMode="decimal" placeholder="120.170000" />
        </Form.Item>
        <Form.Item label={t('location.name')}>
          <Input
            value={name}
            onChange={setName}
            maxLength={PLACE_TEXT_MAX}
            placeholder={t('location.namePlaceholder')}
          />
        </Form.Item>
        <Form.Item label={t('location.address')}>
          <Input value={address} onChange={setAddress} maxLength={PLACE_TEXT_MAX} />
        </Form.Item>
      </Form>
      <div className="location-actions">
        <Button block color="primary" onClick={use}>
          {t('location.use')}
        </Button>
      </div>
    </div>
  );
}
