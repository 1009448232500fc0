import type { ClinicFile } from '../clinics/clinic-file.js';
import { demoClinic } from './demo-clinic.js';

/**
 * A second demo clinic, for `npm run demo:sites` (one BFF serving two clinics'
 * sites): a different practice in another city, with its own name, colours,
 * hours, fees and dentists, so the two embeds are told apart at a glance. Its
 * pages and what is not named here (services, FAQs, section labels) follow the
 * first demo clinic (demo-clinic.ts).
 */
export function secondDemoClinic(publicUrl: string): ClinicFile {
  const base = publicUrl.replace(/\/+$/, '');
  const image = (name: string): string => `${base}/assets/demo/${name}`;
  const first = demoClinic(publicUrl);

  const phone = '+44 131 496 0123';
  const email = 'hello@harbourdental.example';
  const address = '7 Shore Place, Leith, Edinburgh EH6 6SW';

  return {
    ...first,
    organization: {
      ...first.organization,
      name: 'Harbour Family Dental',
      short_name: 'Harbour Dental',
      logo: image('harbour-logo.svg'),
      address: '7 Shore Place, Leith',
      city: 'Edinburgh',
      state: 'City of Edinburgh',
      region: 'Scotland',
      postal_code: 'EH6 6SW',
      phone,
      email,
      website: 'https://harbourdental.example',
      fax: null,
      established_date: '2016-09-01',
    },
    website: {
      ...first.website,
      clinic_name: 'Harbour Family Dental',
      theme_primary: '#1d4ed8',
      theme_secondary: '#0ea5e9',
      theme_dark: '#1e3a8a',
      hero_title: 'Relaxed family dentistry by the shore in Leith',
      hero_subtitle: '<p>Check-ups, hygiene and fillings for the whole family, with <strong>evening appointments</strong> on weekdays.</p>',
      hero_badge: 'New patients welcome',
      hero_bg_image: image('harbour-hero.svg'),
      stat_years: '10',
      about_title: 'A small practice that knows your name',
      about_description:
        '<p>Harbour Family Dental opened on the Shore in 2016. Two dentists and a hygienist look after ' +
        'families from Leith and across the north of Edinburgh.</p>',
      about_image: image('harbour-about.svg'),
      contact_phone: phone,
      contact_email: email,
      contact_address: address,
      whatsapp_number: '+441314960123',
      map_url: 'https://www.google.com/maps/search/?api=1&query=Harbour+Family+Dental+Leith+Edinburgh',
      opening_hours: {
        Monday: { open: '09:00', close: '19:30', is_closed: false },
        Tuesday: { open: '09:00', close: '19:30', is_closed: false },
        Wednesday: { open: '09:00', close: '17:30', is_closed: false },
        Thursday: { open: '09:00', close: '19:30', is_closed: false },
        Friday: { open: '09:00', close: '16:00', is_closed: false },
        Saturday: { open: '09:00', close: '13:00', is_closed: true },
        Sunday: { open: '09:00', close: '13:00', is_closed: true },
      },
      team_members: [
        { photo: image('team-morag.svg'), name: 'Dr Morag Campbell', role: 'Principal Dentist', linkedin: 'https://www.linkedin.com/in/morag-campbell-dentist' },
        { photo: image('team-tomasz.svg'), name: 'Dr Tomasz Nowak', role: 'Family Dentist', linkedin: 'https://www.linkedin.com/in/tomasz-nowak-dentist' },
      ],
      testimonials: [],
      footer_description: 'Harbour Family Dental is an independent family practice on the Shore in Leith, Edinburgh, since 2016.',
      social_facebook: null,
      social_instagram: null,
      social_twitter: null,
      social_linkedin: null,
      seo_title: 'Harbour Family Dental | Family Dentist in Leith, Edinburgh',
      seo_description: 'Friendly family dentist in Leith, Edinburgh. Check-ups, hygiene and fillings, with evening appointments. Book online.',
      seo_keywords: 'dentist Leith, family dentist Edinburgh, dental hygienist Leith',
    },
    treatments: [
      { ...treatment(first, 'Dental check-up'), base_fee: '55.00' },
      { ...treatment(first, 'Hygiene appointment'), base_fee: '70.00', duration_minutes: 30 },
      { ...treatment(first, 'White filling'), base_fee: '120.00' },
    ],
    dentists: [
      {
        doctor_name: 'Dr Morag Campbell',
        specialization: 'General & Family Dentistry',
        qualification: 'BDS (Edin), MFDS RCSEd',
        experience_years: 14,
        consultation_fee: '55.00',
        signature_image_url: image('signature-morag.svg'),
      },
      {
        doctor_name: 'Dr Tomasz Nowak',
        specialization: 'Family & Preventive Dentistry',
        qualification: 'LDS, MJDF RCS',
        experience_years: 7,
        consultation_fee: '55.00',
        signature_image_url: image('signature-tomasz.svg'),
      },
    ],
  };
}

/** The first demo clinic's treatment of that name, to be given this clinic's fees. */
function treatment(first: ClinicFile, name: string): ClinicFile['treatments'][number] {
  const found = first.treatments.find((t) => t.treatment_name === name);
  if (!found) throw new Error(`the first demo clinic has no treatment named ${name}`);
  return found;
}
