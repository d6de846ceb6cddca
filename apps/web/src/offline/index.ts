export * from './AnswerQueueProvider.tsx';
export * from './answerQueue.ts';
