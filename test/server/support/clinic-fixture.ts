import type { ClinicFile } from '../../../server/clinics/clinic-file.js';

const weekday = { open: '08:00', close: '18:00', is_closed: false };

/**
 * A small, complete clinic: Europe/London, open Monday to Friday 08:00-18:00,
 * Saturday 09:00-13:00, closed on Sunday; two active treatments and one
 * inactive; two dentists.
 */
export function clinicFixture(name = 'Test Dental'): ClinicFile {
  return {
    timezone: 'Europe/London',
    organization: {
      name,
      short_name: 'TD',
      tooth_system: 'FDI',
      currency: 'GBP',
      currency_symbol: '£',
      logo: 'https://cdn.example.com/logo.png',
      address: '1 High Street',
      city: 'London',
      state: 'Greater London',
      region: 'England',
      postal_code: 'N1 1AA',
      country: 'United Kingdom',
      phone: '+44 20 7946 0000',
      email: 'hello@test-dental.example',
      website: 'https://test-dental.example',
      fax: null,
      established_date: '2010-05-01',
    },
    website: {
      clinic_name: name,
      theme_primary: '#0f766e',
      theme_secondary: '#f59e0b',
      theme_dark: '#134e4a',
      hero_title: 'Healthy smiles',
      hero_subtitle: '<p>Gentle care for <strong>all ages</strong></p>',
      hero_badge: 'Open Saturdays',
      hero_bg_image: 'https://cdn.example.com/hero.jpg',
      stat_years: '15+',
      stat_support: '24/7',
      stat_success: '98%',
      about_title: 'About us',
      about_description: '<p>A family practice.</p>',
      about_image: 'https://cdn.example.com/about.jpg',
      contact_phone: '+44 20 7946 0000',
      contact_email: 'hello@test-dental.example',
      contact_address: '1 High Street, London',
      whatsapp_number: '+447700900000',
      map_url: 'https://maps.example.com/?q=1+High+Street',
      opening_hours: {
        Monday: weekday,
        Tuesday: weekday,
        Wednesday: weekday,
        Thursday: weekday,
        Friday: weekday,
        Saturday: { open: '09:00', close: '13:00', is_closed: false },
        Sunday: { open: '09:00', close: '13:00', is_closed: true },
      },
      team_members: [
        { photo: 'https://cdn.example.com/a.jpg', name: 'Ann Smith', role: 'Dentist', linkedin: 'https://linkedin.com/in/ann' },
      ],
      testimonials: [{ photo: 'https://cdn.example.com/t.jpg', name: 'Tom', role: 'Patient', comment: 'Great.' }],
      faqs: [{ question: 'Do you take new patients?', answer: 'Yes.' }],
      services: [
        { image: 'https://cdn.example.com/s.jpg', title: 'Check-ups', description: 'Regular care.', features: 'X-rays, cleaning' },
      ],
      cta_text: 'Book now',
      appointment_title: 'Book an appointment',
      appointment_subtitle: 'We answer within a day',
      about_label: 'About',
      footer_description: 'Your local dentist.',
      social_facebook: 'https://facebook.com/testdental',
      social_instagram: null,
      social_twitter: null,
      social_linkedin: 'https://linkedin.com/company/testdental',
      section_labels: { services: 'Our services', team: 'Our team' },
      seo_title: 'Test Dental',
      seo_description: 'Dentist in London',
      seo_keywords: 'dentist, london',
    },
    treatments: [
      { treatment_name: 'Check-up', description: 'Exam', base_fee: '60.00', duration_minutes: 30, image_url: 'https://cdn.example.com/c.jpg' },
      { treatment_name: 'Whitening', description: 'Bleaching', base_fee: '350.50', duration_minutes: 90, image_url: '' },
      { treatment_name: 'Old treatment', description: 'Gone', base_fee: '10.00', duration_minutes: 15, image_url: '', active: false },
    ],
    dentists: [
      {
        doctor_name: 'Dr Ann Smith',
        specialization: 'General dentistry',
        qualification: 'BDS',
        experience_years: 12,
        consultation_fee: '45.00',
        signature_image_url: 'https://cdn.example.com/sig.png',
      },
      {
        doctor_name: 'Dr Raj Patel',
        specialization: 'Orthodontics',
        qualification: 'BDS, MOrth',
        experience_years: 8,
        consultation_fee: '80.00',
        signature_image_url: '',
      },
    ],
  };
}
