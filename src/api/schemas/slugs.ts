// The dataset slugs with a meaning of their own, apart from the schemas: modules that need only these
// (the trigger file format, loaded in the editor from its own bundle) do not load zod with them.

/** Path segment that addresses every dataset of the environment (spec part 4). */
export const ENVIRONMENT_WIDE = '__all__';
/** `dataset_slug` value the service reports on environment-wide triggers (spec 2.6). */
export const ENVIRONMENT_WIDE_TRIGGER_SLUG = 'all';
