// What other features may use of the queries feature: the types of the services handed to them at activation.
export type { PreviewWindow, QueryServices, QuerySession } from './queryServices';
