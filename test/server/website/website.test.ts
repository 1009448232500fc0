import { describe, expect, it } from 'vitest';
import { WebsiteResponse } from '../../../contract/index.js';
import type { ClinicFile } from '../../../server/clinics/clinic-file.js';
import { clinicFixture } from '../support/clinic-fixture.js';
import { authenticatedCaller, type Caller } from '../support/test-server.js';
import { twoClinics, useTestServer } from '../support/use-test-server.js';

/** A second clinic whose website differs from the fixture's in every part a mix-up would show. */
function otherClinicFile(): ClinicFile {
  const file = clinicFixture('Other Dental');
  return {
    ...file,
    website: {
      ...file.website,
      theme_primary: '#1d4ed8',
      hero_title: 'Other smiles',
      opening_hours: { ...file.website.opening_hours, Monday: { open: '10:00', close: '16:00', is_closed: false } },
      team_members: [],
      testimonials: [],
      faqs: [{ question: 'Parking?', answer: 'Behind the building.' }],
      services: [],
      social_facebook: null,
      social_instagram: 'https://instagram.com/otherdental',
      section_labels: { faq: 'Questions' },
    },
  };
}

const ctx = useTestServer({ setup: twoClinics(otherClinicFile()) });

const siteOf = async (who: Caller) => WebsiteResponse.parse(await (await who.get('/website')).json()).site;

describe('GET /website', () => {
  it('carries the clinic\'s care_id in site', async () => {
    expect((await siteOf(ctx.caller)).care_id).toBe(ctx.clinic.careId);
  });

  it('answers every website field exactly as provisioned', async () => {
    expect(await siteOf(ctx.caller)).toStrictEqual({ care_id: ctx.clinic.careId, ...clinicFixture().website });
  });

  it('answers the opening hours of every day, including the closed Sunday', async () => {
    const site = await siteOf(ctx.caller);
    expect(site.opening_hours).toStrictEqual(clinicFixture().website.opening_hours);
    expect(site.opening_hours.Sunday).toStrictEqual({ open: '09:00', close: '13:00', is_closed: true });
  });

  it('answers team members, testimonials, FAQs and services in full', async () => {
    const site = await siteOf(ctx.caller);
    const { team_members, testimonials, faqs, services } = clinicFixture().website;
    expect(site.team_members).toStrictEqual(team_members);
    expect(site.testimonials).toStrictEqual(testimonials);
    expect(site.faqs).toStrictEqual(faqs);
    expect(site.services).toStrictEqual(services);
  });

  it('answers the section labels as provisioned', async () => {
    expect((await siteOf(ctx.caller)).section_labels).toStrictEqual({ services: 'Our services', team: 'Our team' });
  });

  it('answers HTML fields verbatim, without escaping or stripping', async () => {
    const site = await siteOf(ctx.caller);
    expect(site.hero_subtitle).toBe('<p>Gentle care for <strong>all ages</strong></p>');
    expect(site.about_description).toBe('<p>A family practice.</p>');
  });

  it('answers null, not a missing field or an empty string, for social links the clinic does not have', async () => {
    const site = await siteOf(ctx.caller);
    expect(site).toHaveProperty('social_instagram', null);
    expect(site).toHaveProperty('social_twitter', null);
    expect(site.social_facebook).toBe('https://facebook.com/testdental');
    expect(site.social_linkedin).toBe('https://linkedin.com/company/testdental');
  });

  it('answers another clinic its own website, not this one', async () => {
    const other = await authenticatedCaller(ctx.server, ctx.otherClinic);
    expect(await siteOf(other)).toStrictEqual({ care_id: ctx.otherClinic.careId, ...otherClinicFile().website });
  });
});
