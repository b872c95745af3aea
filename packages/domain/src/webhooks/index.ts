export * from './webhook-event';
export * from './webhook-signature';
