export * from './common';
export * from './apiKey';
export * from './burnAlert';
export * from './column';
export * from './datasetDefinitions';
export * from './queryResult';
export * from './trigger';
export * from './query';
