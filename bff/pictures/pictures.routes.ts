import { z } from 'zod';
import { ApiError, notFound } from '../../contract/errors.js';
import { MAX_PICTURE_KEY_CHARS, PICTURES_PATH, pictureUrlOfKey } from '../../contract/rules/pictures.js';
import { declaration, served, type AnyOperation } from '../../platform/operation.js';
import { removePerClientHeaders } from '../../platform/fast-http/rate-limit-headers.js';
import { errorAnswer, IfNoneMatch, sharedAnswers, tagged } from '../http/answers.js';
import type { ContentCache } from '../content/content-cache.js';
import { namedPictures } from './named-pictures.js';
import { PICTURE_TYPES, PictureRefused } from './picture-download.js';
import type { PictureSite, PictureStore } from './picture-store.js';

const PictureParams = z.object({
  key: z
    .string()
    .max(MAX_PICTURE_KEY_CHARS)
    .meta({ description: "The picture's URL, as the clinic's content names it, in base64url (UTF-8, no padding)." }),
});

const PICTURE_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * The one answer to every picture not served, whatever the reason: a refused
 * address, a closed port, an open port that is no picture host, a page, a
 * picture too large. Told apart, they would let anyone who can put a URL in
 * a clinic's content map the network the BFF runs in. The reason goes to the
 * operator's log only.
 */
const NOT_SERVED = 'The picture could not be fetched';

/** What GET /api/pictures/{key} declares: the same for every site. */
const binary = z.string().meta({ format: 'binary' });

const GET_PICTURE = declaration({
    id: 'getPicture',
    method: 'get',
    path: `${PICTURES_PATH}/:key`,
    docs: {
      ...tagged('Content'),
      summary: "A picture the clinic's content names, served from the BFF's origin",
      description:
        'Only a URL that the current content (organization, website, treatments, dentists) names; any other key is 404. ' +
        'Images only (JPEG, PNG, WebP, AVIF, GIF, SVG; an SVG under a sandboxing CSP), bounded in size, cached.',
    },
    request: { params: PictureParams, headers: IfNoneMatch },
    responses: {
      '200': {
        description: 'The picture.',
        content: Object.fromEntries(PICTURE_TYPES.map((type) => [type, { schema: binary }])),
      },
      '404': errorAnswer('not_found: the key names no picture of the clinic’s current content.'),
      '429': sharedAnswers.rateLimited,
      '500': sharedAnswers.internalError,
      '502': errorAnswer(
        'upstream_unavailable: the picture could not be fetched, is not at an address the BFF may reach, is no image, or is too large; one answer for all.',
      ),
      '503': sharedAnswers.upstreamBusy,
    },
});

/**
 * GET /api/pictures/{key}: a picture the clinic's current content names,
 * from the BFF's own origin, so that a page whose CSP allows images only from
 * the BFF shows it. Any key that is not such a picture is 404: the BFF is no
 * proxy for other URLs, nor for a named URL inside a network (bff/outbound/).
 * A picture not served is 502 with one body, and never cached by the browser.
 */
export function pictureOperations(cache: ContentCache, pictures: PictureStore, site: PictureSite, maxAgeSeconds: number): AnyOperation[] {
  return [
    served(GET_PICTURE, {
      async handle({ params }, req, res) {
        const url = pictureUrlOfKey(params.key);
        if (!url || !(await namedPictures(cache)).has(url)) throw notFound('Picture');
        let picture;
        try {
          picture = await pictures.get(site, url);
        } catch (error) {
          if (!(error instanceof PictureRefused)) throw error;
          req.log?.warn({ picture: error.reason }, 'picture not served');
          throw new ApiError('upstream_unavailable', NOT_SERVED);
        }
        removePerClientHeaders(res);
        res.set({
          'Cache-Control': `public, max-age=${maxAgeSeconds}`,
          ETag: picture.etag,
          'Content-Type': picture.type,
          // Opened on its own, an SVG would be a document of the BFF's origin: no script, no requests, sandboxed.
          'Content-Security-Policy': PICTURE_CSP,
        });
        if (req.fresh) {
          res.status(304).end();
          return;
        }
        res.send(picture.body);
      },
    }),
  ];
}
