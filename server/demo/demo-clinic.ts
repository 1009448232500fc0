import type { ClinicFile } from '../clinics/clinic-file.js';

/** The demo picture names this file uses; each one exists in demo-images.ts. */
type DemoPicture =
  | 'logo.svg'
  | 'hero.svg'
  | 'about.svg'
  | 'service-family.svg'
  | 'service-nervous.svg'
  | 'service-emergency.svg'
  | 'service-planning.svg'
  | 'team-amara.svg'
  | 'team-james.svg'
  | 'team-sofia.svg'
  | 'team-liam.svg'
  | 'patient-1.svg'
  | 'patient-2.svg'
  | 'patient-3.svg'
  | 'treatment-checkup.svg'
  | 'treatment-hygiene.svg'
  | 'treatment-whitening.svg'
  | 'treatment-filling.svg'
  | 'treatment-implant.svg'
  | 'treatment-aligners.svg'
  | 'signature-amara.svg'
  | 'signature-james.svg'
  | 'signature-sofia.svg';

/** A complete, realistic demo clinic; image URLs point at this server's /assets/demo/ pictures. */
export function demoClinic(publicUrl: string): ClinicFile {
  const base = publicUrl.replace(/\/+$/, '');
  const image = (name: DemoPicture): string => `${base}/assets/demo/${name}`;

  const phone = '+44 20 7946 0958';
  const email = 'hello@brightsmile.example';
  const address = '42 Harley Crescent, Marylebone, London W1G 9QD';

  return {
    timezone: 'Europe/London',

    organization: {
      name: 'Bright Smile Dental',
      short_name: 'Bright Smile',
      tooth_system: 'FDI',
      currency: 'GBP',
      currency_symbol: '£',
      logo: image('logo.svg'),
      address: '42 Harley Crescent, Marylebone',
      city: 'London',
      state: 'Greater London',
      region: 'England',
      postal_code: 'W1G 9QD',
      country: 'United Kingdom',
      phone,
      email,
      website: 'https://brightsmile.example',
      fax: '+44 20 7946 0959',
      established_date: '2009-04-01',
    },

    website: {
      clinic_name: 'Bright Smile Dental',
      theme_primary: '#0f766e',
      theme_secondary: '#f59e0b',
      theme_dark: '#134e4a',
      hero_title: 'Gentle, modern dentistry in the heart of London',
      hero_subtitle:
        '<p>From routine check-ups to <strong>dental implants and clear aligners</strong>, our friendly team ' +
        'looks after the whole family. Book online in under a minute.</p>',
      hero_badge: 'Accepting new NHS & private patients',
      hero_bg_image: image('hero.svg'),
      stat_years: '15+',
      stat_support: '24/7',
      stat_success: '98%',
      about_title: 'A calm, caring practice since 2009',
      about_description:
        '<p>Bright Smile Dental opened its doors in Marylebone in 2009 with one simple idea: ' +
        '<strong>dentistry should never be something you dread</strong>. Today our team of dentists, ' +
        'hygienists and nurses welcomes more than 6,000 patients every year.</p>' +
        '<ul>' +
        '<li>Same-week appointments and an emergency line for registered patients</li>' +
        '<li>Digital X-rays and 3D intra-oral scanning &ndash; no messy impressions</li>' +
        '<li>Clear, written treatment plans and 0% finance on larger treatments</li>' +
        '</ul>',
      about_image: image('about.svg'),
      contact_phone: phone,
      contact_email: email,
      contact_address: address,
      whatsapp_number: '+442079460958',
      map_url: 'https://www.google.com/maps/search/?api=1&query=Bright+Smile+Dental+Marylebone+London+W1G+9QD',
      opening_hours: {
        Monday: { open: '08:00', close: '18:00', is_closed: false },
        Tuesday: { open: '08:00', close: '18:00', is_closed: false },
        Wednesday: { open: '08:00', close: '18:00', is_closed: false },
        Thursday: { open: '08:00', close: '20:00', is_closed: false },
        Friday: { open: '08:00', close: '18:00', is_closed: false },
        Saturday: { open: '09:00', close: '14:00', is_closed: false },
        Sunday: { open: '09:00', close: '13:00', is_closed: true },
      },
      team_members: [
        {
          photo: image('team-amara.svg'),
          name: 'Dr Amara Okafor',
          role: 'Principal Dentist',
          linkedin: 'https://www.linkedin.com/in/amara-okafor-dentist',
        },
        {
          photo: image('team-james.svg'),
          name: 'Dr James Chen',
          role: 'Implant Dentist',
          linkedin: 'https://www.linkedin.com/in/james-chen-implants',
        },
        {
          photo: image('team-sofia.svg'),
          name: 'Dr Sofia Rossi',
          role: 'Orthodontic & Cosmetic Dentist',
          linkedin: 'https://www.linkedin.com/in/sofia-rossi-orthodontics',
        },
        {
          photo: image('team-liam.svg'),
          name: 'Liam Hughes',
          role: 'Dental Hygienist',
          linkedin: 'https://www.linkedin.com/in/liam-hughes-hygienist',
        },
      ],
      testimonials: [
        {
          photo: image('patient-1.svg'),
          name: 'Emily Walsh',
          role: 'Patient since 2015',
          comment:
            'I used to put off the dentist for years. Dr Okafor explained everything before she started and ' +
            'I honestly felt nothing. The whole family comes here now.',
        },
        {
          photo: image('patient-2.svg'),
          name: 'Daniel Kowalski',
          role: 'Implant patient',
          comment:
            'Dr Chen replaced a missing molar with an implant. The plan, the cost and every appointment were ' +
            'exactly as promised, and it feels like my own tooth.',
        },
        {
          photo: image('patient-3.svg'),
          name: 'Priya Mehta',
          role: 'Clear aligner patient',
          comment:
            'Nine months of aligners with Dr Rossi and my teeth are finally straight. Booking online around ' +
            'my work shifts was so easy, including the late Thursday slots.',
        },
      ],
      faqs: [
        {
          question: 'Are you accepting new patients?',
          answer:
            'Yes. We welcome new private patients of all ages and have a limited number of NHS places for ' +
            'children. You can book a new-patient examination online or by phone.',
        },
        {
          question: 'What should I do in a dental emergency?',
          answer:
            'Call us on 020 7946 0958 as early as possible. We keep emergency slots free every weekday, and ' +
            'registered patients can reach our out-of-hours line at any time.',
        },
        {
          question: 'Do you offer payment plans?',
          answer:
            'Treatments over £500, such as implants and clear aligners, can be spread over 6 to 24 months ' +
            'with 0% finance, subject to status. Ask us for a written quote.',
        },
        {
          question: 'How often should I have a check-up and hygiene visit?',
          answer:
            'Most adults benefit from a check-up every six to twelve months and a hygiene appointment every ' +
            'three to six months. Your dentist will recommend an interval that suits your mouth.',
        },
        {
          question: 'Can I cancel or move my appointment?',
          answer:
            'Of course. Please call us on 020 7946 0958 at least 24 hours in advance so we can offer the time ' +
            'to someone else. Online booking is for new appointments: to move or cancel one, please phone us.',
        },
      ],
      services: [
        {
          image: image('service-family.svg'),
          title: 'Family dentistry',
          description:
            'One practice for the whole family, from a child’s first visit to grandparents’ dentures, with ' +
            'reminders when each of you is due.',
          features: 'Children welcome · Late appointments on Thursdays · NHS places for children',
        },
        {
          image: image('service-nervous.svg'),
          title: 'Nervous patients',
          description:
            'Longer first visits, everything explained before we start, and a signal to pause whenever you ' +
            'need to.',
          features: 'Extra-time appointments · Numbing gel first · Sedation available',
        },
        {
          image: image('service-emergency.svg'),
          title: 'Emergency care',
          description:
            'Pain, swelling or a broken tooth: call us first thing and we will see you the same weekday.',
          features: 'Emergency slots every weekday · Out-of-hours line for registered patients',
        },
        {
          image: image('service-planning.svg'),
          title: 'Planning and technology',
          description:
            'Digital X-rays and 3D scans show you what we see, and every plan comes with a written quote ' +
            'before treatment starts.',
          features: 'Low-dose digital X-rays · 3D scanning · 0% finance over £500',
        },
      ],
      cta_text: 'Book your appointment',
      appointment_title: 'Book an appointment online',
      appointment_subtitle: 'Choose a treatment, a dentist and a time that suits you — it takes less than a minute.',
      about_label: 'About us',
      footer_description:
        'Bright Smile Dental is an independent family practice in Marylebone, London, offering preventive, ' +
        'cosmetic and implant dentistry since 2009. Registered with the Care Quality Commission.',
      social_facebook: 'https://www.facebook.com/brightsmiledental.example',
      social_instagram: 'https://www.instagram.com/brightsmiledental.example',
      social_twitter: null,
      social_linkedin: 'https://www.linkedin.com/company/bright-smile-dental-example',
      section_labels: {
        services: 'Our services',
        team: 'Meet the team',
        testimonials: 'What our patients say',
        faqs: 'Frequently asked questions',
        hours: 'Opening hours',
        contact: 'Get in touch',
        treatments: 'Treatments & fees',
        dentists: 'Our dentists',
        booking: 'Book an appointment',
        status: 'Your booking',
      },
      seo_title: 'Bright Smile Dental | Family & Cosmetic Dentist in Marylebone, London',
      seo_description:
        'Friendly private dentist in Marylebone, London. Check-ups, hygiene, whitening, dental implants and ' +
        'clear aligners. Late opening on Thursdays and Saturday mornings. Book online today.',
      seo_keywords:
        'dentist London, Marylebone dentist, dental implants London, teeth whitening, clear aligners, ' +
        'dental hygienist, emergency dentist, family dentist',
    },

    treatments: [
      {
        treatment_name: 'Dental check-up',
        description:
          'A full examination of teeth, gums and soft tissues, including oral cancer screening and any ' +
          'X-rays needed, with a clear plan for what comes next.',
        base_fee: '65.00',
        duration_minutes: 30,
        image_url: image('treatment-checkup.svg'),
        active: true,
      },
      {
        treatment_name: 'Hygiene appointment',
        description:
          'Scale and polish with our hygienist to remove plaque and tartar, plus tailored advice on ' +
          'brushing and interdental cleaning.',
        base_fee: '85.00',
        duration_minutes: 45,
        image_url: image('treatment-hygiene.svg'),
        active: true,
      },
      {
        treatment_name: 'Teeth whitening',
        description:
          'Professional whitening with custom-made trays and dentist-strength gel, supervised from the ' +
          'first fitting to the final shade check.',
        base_fee: '395.00',
        duration_minutes: 60,
        image_url: image('treatment-whitening.svg'),
        active: true,
      },
      {
        treatment_name: 'White filling',
        description:
          'A tooth-coloured composite filling to repair decay or a chipped tooth, shade-matched to your ' +
          'natural teeth. Fee shown is for one surface.',
        base_fee: '145.00',
        duration_minutes: 45,
        image_url: image('treatment-filling.svg'),
        active: true,
      },
      {
        treatment_name: 'Implant consultation',
        description:
          'An assessment with our implant dentist, including a 3D CBCT scan, to discuss whether implants ' +
          'are right for you and what the full treatment would cost.',
        base_fee: '120.00',
        duration_minutes: 60,
        image_url: image('treatment-implant.svg'),
        active: true,
      },
      {
        treatment_name: 'Clear aligners consultation',
        description:
          'A digital scan and virtual smile preview so you can see the expected result of clear aligner ' +
          'treatment before you decide.',
        base_fee: '75.00',
        duration_minutes: 45,
        image_url: image('treatment-aligners.svg'),
        active: true,
      },
      {
        treatment_name: 'Amalgam filling (discontinued)',
        description:
          'Silver amalgam fillings are no longer offered at the practice; we now use tooth-coloured ' +
          'composite fillings instead.',
        base_fee: '95.00',
        duration_minutes: 30,
        image_url: image('treatment-filling.svg'),
        active: false,
      },
    ],

    dentists: [
      {
        doctor_name: 'Dr Amara Okafor',
        specialization: 'General & Preventive Dentistry',
        qualification: 'BDS, MFDS RCS',
        experience_years: 16,
        consultation_fee: '65.00',
        signature_image_url: image('signature-amara.svg'),
      },
      {
        doctor_name: 'Dr James Chen',
        specialization: 'Implant Dentistry',
        qualification: 'BDS, MSc Implant Dentistry, MJDF RCS',
        experience_years: 12,
        consultation_fee: '120.00',
        signature_image_url: image('signature-james.svg'),
      },
      {
        doctor_name: 'Dr Sofia Rossi',
        specialization: 'Orthodontics & Cosmetic Dentistry',
        qualification: 'BDS, MFDS RCS, MOrth RCS',
        experience_years: 9,
        consultation_fee: '75.00',
        signature_image_url: image('signature-sofia.svg'),
      },
    ],
  };
}
