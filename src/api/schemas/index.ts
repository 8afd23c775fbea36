export * from './common';
export * from './apiKey';
export * from './burnAlert';
export * from './column';
export * from './datasetDefinitions';
export * from './queryResult';
// The trigger schema moves to the linter; the read side comes back here next.
export * from '../../lint/schema/trigger';
