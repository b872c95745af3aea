export { createFragmentSimulator } from './simulator';
export type { FragmentSimulator, FragmentSimulatorOptions, FragmentStats } from './simulator';
export type { FragmentChainView } from './chain-view';
export { defaultConfig, defaultFaults, FAST_FRAGMENT_TIMINGS } from './config';
export type {
  ConfirmFaultMode,
  DoneFaultMode,
  FragmentConfigPatch,
  FragmentFaults,
  FragmentSimulatorConfig,
  MethodFaults,
  MsRange,
} from './config';
export { RecipientDirectory, defaultDirectory } from './directory';
export type { RecipientEntry, RecipientKind } from './directory';
export { demoCredentials, demoFragmentCookies } from './demo-credentials';
export { FragmentErrors } from './errors';
export { buildCommentCell, commentText, encodePayload } from './comment-payload';
export { buildJettonTransfer } from './jetton-payload';
export type { DeliveredOrder } from './orders';
