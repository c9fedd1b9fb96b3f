/** A country or region with its dialling code, named in both languages of the app. */
export interface Country {
  code: string;
  zh: string;
  en: string;
}

/** The country-code page's static list (spec §2 user/quhao); mainland China first, as most users are there. */
export const COUNTRIES: readonly Country[] = [
  { code: '86', zh: '中国大陆', en: 'Mainland China' },
  { code: '852', zh: '中国香港', en: 'Hong Kong, China' },
  { code: '853', zh: '中国澳门', en: 'Macao, China' },
  { code: '886', zh: '中国台湾', en: 'Taiwan, China' },
  { code: '1', zh: '美国', en: 'United States' },
  { code: '1', zh: '加拿大', en: 'Canada' },
  { code: '44', zh: '英国', en: 'United Kingdom' },
  { code: '81', zh: '日本', en: 'Japan' },
  { code: '82', zh: '韩国', en: 'South Korea' },
  { code: '65', zh: '新加坡', en: 'Singapore' },
  { code: '60', zh: '马来西亚', en: 'Malaysia' },
  { code: '66', zh: '泰国', en: 'Thailand' },
  { code: '84', zh: '越南', en: 'Vietnam' },
  { code: '63', zh: '菲律宾', en: 'Philippines' },
  { code: '62', zh: '印度尼西亚', en: 'Indonesia' },
  { code: '91', zh: '印度', en: 'India' },
  { code: '61', zh: '澳大利亚', en: 'Australia' },
  { code: '64', zh: '新西兰', en: 'New Zealand' },
  { code: '49', zh: '德国', en: 'Germany' },
  { code: '33', zh: '法国', en: 'France' },
  { code: '39', zh: '意大利', en: 'Italy' },
  { code: '34', zh: '西班牙', en: 'Spain' },
  { code: '31', zh: '荷兰', en: 'Netherlands' },
  { code: '7', zh: '俄罗斯', en: 'Russia' },
  { code: '55', zh: '巴西', en: 'Brazil' },
  { code: '52', zh: '墨西哥', en: 'Mexico' },
  { code: '971', zh: '阿联酋', en: 'United Arab Emirates' },
  { code: '27', zh: '南非', en: 'South Africa' },
];

/** Countries whose name (either language) or code contains the query, ignoring case and a leading "+". */
export function searchCountries(query: string): Country[] {
  const q = query.trim().toLowerCase().replace(/^\+/, '');
  if (q === '') return [...COUNTRIES];
  return COUNTRIES.filter((c) => c.code.includes(q) || c.zh.includes(q) || c.en.toLowerCase().includes(q));
}

/** sessionStorage key through which the country page hands its choice back to the login page. */
export const QUHAO_KEY = 'login_quhao';
