/** The bucket of the test apps' media with TEST_MEDIA_STORE=s3 (created by the global setup). */
export const MEDIA_TEST_BUCKET = 'pf-media-tests';
