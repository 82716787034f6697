/** Next.js's defaults: the baseline measures the framework as it comes. */
const config = {};
export default config;
