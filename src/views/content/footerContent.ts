/**
 * The footer's words. The footer is on every page, so they load with the app's shell; the words
 * of the other pages (`siteContent.ts`, which includes these as `footer`) load only with those
 * pages (decision 018).
 */
export const footerContent = {
  copyright: `© ${new Date().getFullYear()} PracticeFolio. All rights reserved.`,
} as const;
