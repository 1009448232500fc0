import type { Dentist, Organization, Treatment, WebsiteSite } from '../../../contract/index.js';

/** The BFF's answers for a small clinic, as the widget receives them. */
export type ContentFixture = {
  success: true;
  data: { organization: Organization; site: WebsiteSite; treatments: Treatment[]; dentists: Dentist[] };
  offers: { confirmation_email: boolean };
};

/** The content bundle of these fixtures (the same objects, so changing them changes the answer). */
export const contentOf = (fixtures: Record<string, unknown>) => (fixtures['/content'] as ContentFixture).data;

/** `emailOffered`: the site sends patients e-mail (the bundle's offers.confirmation_email); not unless a test says so. */
export function clinicFixtures(overrides: { site?: Partial<WebsiteSite>; emailOffered?: boolean } = {}) {
  const weekday = { open: '08:00', close: '18:00', is_closed: false };
  const organization: Organization = {
    care_id: 1, name: 'Fixture Dental', short_name: 'FD', tooth_system: 'FDI', currency: 'GBP', currency_symbol: '£',
    logo: 'https://cdn.test/logo.png', address: '1 High St', city: 'London', state: 'Greater London', region: 'England',
    postal_code: 'N1 1AA', country: 'United Kingdom', phone: '+44 20 7946 0000', email: 'hi@fixture.test',
    website: 'https://fixture.test', fax: null, established_date: '2010-01-01',
    statistics: { total_users: 1, total_patients: 2, total_appointments: 3, total_doctors: 2 },
  };
  const site: WebsiteSite = {
    care_id: 1, clinic_name: 'Fixture Dental', theme_primary: '#0f766e', theme_secondary: '#b45309', theme_dark: '#134e4a',
    hero_title: 'Hero title here', hero_subtitle: '<p>Subtitle with <strong>bold</strong></p>', hero_badge: 'Badge text',
    hero_bg_image: 'https://cdn.test/hero.jpg', stat_years: '15+', stat_support: '24/7', stat_success: '98%',
    about_title: 'About title', about_description: '<p>About <em>us</em></p>', about_image: 'https://cdn.test/about.jpg',
    contact_phone: '+44 20 7946 0000', contact_email: 'hi@fixture.test', contact_address: '1 High St, London',
    whatsapp_number: '+447700900000', map_url: 'https://maps.test/?q=1',
    opening_hours: {
      Monday: weekday, Tuesday: weekday, Wednesday: weekday, Thursday: weekday, Friday: weekday,
      Saturday: { open: '09:00', close: '13:00', is_closed: false }, Sunday: { open: '09:00', close: '13:00', is_closed: true },
    },
    team_members: [{ photo: 'https://cdn.test/a.jpg', name: 'Team Person', role: 'Hygienist', linkedin: 'https://linkedin.test/in/a' }],
    testimonials: [{ photo: 'https://cdn.test/t.jpg', name: 'Happy Patient', role: 'Patient', comment: 'Testimonial comment' }],
    faqs: [{ question: 'FAQ question?', answer: 'FAQ answer.' }],
    services: [{ image: 'https://cdn.test/s.jpg', title: 'Service title', description: 'Service description', features: 'One, Two' }],
    cta_text: 'CTA text', appointment_title: 'Appointment title', appointment_subtitle: 'Appointment subtitle',
    about_label: 'About label', footer_description: 'Footer description',
    social_facebook: 'https://facebook.test/fd', social_instagram: null, social_twitter: null, social_linkedin: 'https://linkedin.test/fd',
    section_labels: { services: 'Services label', team: 'Team label' },
    seo_title: 'SEO', seo_description: 'SEO description', seo_keywords: 'seo',
    ...overrides.site,
  };
  const treatments: Treatment[] = [
    { treatment_id: 1, treatment_name: 'Check-up', description: 'Exam', base_fee: '60.00', duration_minutes: 30, image_url: '' },
    { treatment_id: 2, treatment_name: 'Whitening', description: 'Bleaching', base_fee: '350.50', duration_minutes: 90, image_url: '' },
  ];
  const dentists: Dentist[] = [
    { doctor_id: 1, doctor_name: 'Dr Ann Smith', specialization: 'General', qualification: 'BDS', experience_years: 12, consultation_fee: '45.00', signature_image_url: '' },
    { doctor_id: 2, doctor_name: 'Dr Raj Patel', specialization: 'Orthodontics', qualification: 'BDS, MOrth', experience_years: 8, consultation_fee: '80.00', signature_image_url: '' },
  ];
  return {
    // GET /content: everything the widget shows, in one answer.
    '/content': { success: true, data: { organization, site, treatments, dentists }, offers: { confirmation_email: overrides.emailOffered ?? false } },
    // Every slot open: the widget offers every candidate start (tests answer 'taken' ones with bff.on).
    '/availability': availabilityAnswer([]),
  } as Record<string, unknown>;
}

let counter = 0;
/** A fresh API base per test, so the widget's page-wide request sharing never leaks between tests. */
export const uniqueApiBase = () => `https://bff.test/api-${Date.now()}-${counter++}`;

/** The browser's own zone, so the widget's "today" is the tests' (which use device dates). */
export const DEVICE_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** GET /availability's answer with these slots (time and status); the rest of the day is open. */
export function availabilityAnswer(slots: { time: string; status: 'open' | 'taken' }[], date = '') {
  return {
    success: true,
    best_known: true,
    note: 'Best known availability.',
    data: { date, doctor_id: null, treatment_id: null, duration_minutes: null, step_minutes: 15, time_zone: DEVICE_ZONE, slots },
  };
}
